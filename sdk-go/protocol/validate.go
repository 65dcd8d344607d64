package protocol

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// maxSafeInteger is 2^53-1: integers beyond it are refused so every language reads them exactly.
const maxSafeInteger = 1<<53 - 1

// ValidationError is one schema violation: the JSON path of the value and what is wrong.
// Pointer is the same location as an RFC 6901 JSON pointer ("" is the root) and Keyword the
// JSON Schema keyword the value broke (type, required, additionalProperties, enum, const,
// pattern, minimum, maximum, minLength, maxLength, minItems, maxItems, uniqueItems, oneOf),
// so a host can name the rule without compiling the schema at run time.
type ValidationError struct {
	Path    string
	Pointer string
	Keyword string
	Msg     string
}

func (e ValidationError) Error() string { return e.Path + ": " + e.Msg }

// ValidationErrors lists every violation found in one document.
type ValidationErrors []ValidationError

func (es ValidationErrors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// vpath is a JSON path built on the stack; it becomes a string only when an error needs it.
type vpath struct {
	up  *vpath
	key string
	idx int // used when key == ""
}

func (p *vpath) String() string {
	if p == nil {
		return "$"
	}
	if p.key == "" {
		return p.up.String() + "[" + strconv.Itoa(p.idx) + "]"
	}
	return p.up.String() + "." + p.key
}

type verrs struct {
	list  ValidationErrors
	quiet bool // verdict only: count, never format (the hot path of Valid)
	n     int
}

// add records a violation; generated code calls it only when !e.quiet (see quietGuard).
func (e *verrs) add(p *vpath, keyword, format string, a ...any) {
	e.n++
	e.list = append(e.list, ValidationError{Path: p.String(), Pointer: p.Pointer(), Keyword: keyword, Msg: fmt.Sprintf(format, a...)})
}

// Pointer is the path as an RFC 6901 JSON pointer: "" for the root, "~" and "/" escaped.
func (p *vpath) Pointer() string {
	if p == nil {
		return ""
	}
	if p.key == "" {
		return p.up.Pointer() + "/" + strconv.Itoa(p.idx)
	}
	return p.up.Pointer() + "/" + strings.ReplaceAll(strings.ReplaceAll(p.key, "~", "~0"), "/", "~1")
}

// wantKeyword names the keyword behind a generated "want ..." description: the generator
// phrases each keyword one way ("a match of" pattern, "one of" enum, a quoted value const,
// "at least"/"at most" a bound whose unit says which).
func wantKeyword(want string) string {
	switch {
	case strings.HasPrefix(want, "a match of"):
		return "pattern"
	case strings.HasPrefix(want, "one of"):
		return "enum"
	case strings.HasPrefix(want, `"`):
		return "const"
	case strings.HasSuffix(want, "items"):
		if strings.Contains(want, "at most") {
			return "maxItems"
		}
		return "minItems"
	case strings.HasSuffix(want, "characters") || strings.HasSuffix(want, "bytes"):
		if strings.Contains(want, "at most") {
			return "maxLength"
		}
		return "minLength"
	case strings.HasPrefix(want, "at most"), strings.HasPrefix(want, "less than"):
		return "maximum"
	case strings.HasPrefix(want, "at least"), strings.HasPrefix(want, "more than"):
		return "minimum"
	}
	return "type"
}

func (e *verrs) err() error {
	if len(e.list) == 0 {
		return nil
	}
	return e.list
}

// asInt accepts a JSON number written as an integer (no fraction, no exponent) within ±(2^53-1).
func asInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(n), ".eE") {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil || i > maxSafeInteger || i < -maxSafeInteger {
		return 0, false
	}
	return i, true
}

func asNum(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// Validated is implemented by every generated message type.
type Validated interface {
	validateDoc(doc any, p *vpath, e *verrs)
}

// Unmarshal decodes data into v strictly: strict JSON, then schema validation of v's type, then
// encoding/json (which can no longer match a key case-insensitively: unknown keys were refused).
func Unmarshal(data []byte, v Validated) error {
	doc, err := strictjson.Parse(data)
	if err != nil {
		return err
	}
	var e verrs
	v.validateDoc(doc, nil, &e)
	if err := e.err(); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// ValidateValue checks the encoding of v (raw, as json.Marshal wrote it) against v's own
// schema type: what an SDK sends is judged by the validator the host runs, and only the
// validators of the types a program sends are linked into it.
func ValidateValue(v Validated, raw []byte) error {
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return err
	}
	var e verrs
	v.validateDoc(doc, nil, &e)
	return e.err()
}

// Validate checks a document from strictjson.Parse against the named schema type. Strings are
// assumed to be valid UTF-8, as strictjson guarantees.
func Validate(typeName string, doc any) error {
	var e verrs
	if !dispatch(typeName, doc, &e) {
		return fmt.Errorf("protocol: no schema type %q", typeName)
	}
	return e.err()
}

// ValidateFromHost is Validate for the types an extension receives from the host (the
// params of the methods the host sends, the results of the requests an extension sends),
// with the same verdicts and messages. An extension validates only through it, so its
// binary links only those validators and not the ones only a host needs (issue 17); a
// name outside that set is an error, as an unknown one is to Validate.
func ValidateFromHost(typeName string, doc any) error {
	var e verrs
	if !dispatchFromHost(typeName, doc, &e) {
		return fmt.Errorf("protocol: %q is not a schema type an extension receives", typeName)
	}
	return e.err()
}

// Valid reports whether doc satisfies the named schema type, without building error messages.
// It panics on an unknown type name (a programming error, unlike bad input).
func Valid(typeName string, doc any) bool {
	e := verrs{quiet: true}
	if !dispatch(typeName, doc, &e) {
		panic("protocol: no schema type " + typeName)
	}
	return e.n == 0
}

// TypeNames lists every schema type Validate knows.
func TypeNames() []string {
	return slices.Clone(typeNames)
}

// Nullable is a value that may be JSON null (Valid false).
type Nullable[T any] struct {
	Value T
	Valid bool
}

// NullableOf returns a non-null Nullable.
func NullableOf[T any](v T) Nullable[T] { return Nullable[T]{Value: v, Valid: true} }

func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Nullable[T]{}
		return nil
	}
	n.Valid = true
	return json.Unmarshal(b, &n.Value)
}

// peek returns the raw members of a JSON object (for union dispatch).
func peek(b []byte) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	err := json.Unmarshal(b, &m)
	return m, err
}

func rawString(r json.RawMessage) string {
	var s string
	_ = json.Unmarshal(r, &s)
	return s
}

// kindName names the JSON kind of a strictjson value, for error messages.
func kindName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, ok := asInt(x); ok {
			return "integer"
		}
		return "number " + string(x)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// compositeItem is an object or array item of a uniqueItems array, keyed by its JSON.
type compositeItem string

// duplicate finds two equal items (uniqueItems on arrays of strings or integers).
func duplicate(items []any) (int, int, bool) {
	seen := make(map[any]int, len(items))
	for i, it := range items {
		switch x := it.(type) {
		case json.Number:
			if v, ok := asInt(x); ok {
				it = v
			}
		case map[string]any, []any:
			// Not a valid map key (hashing it panicked). Such an item already fails the items'
			// own check; its JSON (object keys sorted) still tells equal items apart.
			b, _ := json.Marshal(x)
			it = compositeItem(b)
		}
		if j, ok := seen[it]; ok {
			return j, i, true
		}
		seen[it] = i
	}
	return 0, 0, false
}

// OptionalNullable is an optional field that may also be null: absent (Present false), null
// (Null true) or a value. Use it where a pointer would lose the difference.
type OptionalNullable[T any] struct {
	Present bool
	Null    bool
	Value   T
}

// OptionalValue returns a present, non-null OptionalNullable.
func OptionalValue[T any](v T) OptionalNullable[T] {
	return OptionalNullable[T]{Present: true, Value: v}
}

// IsZero makes `omitzero` drop an absent field.
func (o OptionalNullable[T]) IsZero() bool { return !o.Present }

func (o OptionalNullable[T]) MarshalJSON() ([]byte, error) {
	if o.Null {
		return []byte("null"), nil
	}
	return json.Marshal(o.Value)
}

func (o *OptionalNullable[T]) UnmarshalJSON(b []byte) error {
	*o = OptionalNullable[T]{Present: true}
	if string(b) == "null" {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// Shared checks for a single unconstrained kind, so generated code stays short.

func wantString(v any, p *vpath, e *verrs) {
	if _, ok := v.(string); !ok {
		e.fail(p, "string", v)
	}
}

func wantBoolean(v any, p *vpath, e *verrs) {
	if _, ok := v.(bool); !ok {
		e.fail(p, "boolean", v)
	}
}

func wantInt(v any, p *vpath, e *verrs) {
	if _, ok := asInt(v); !ok {
		e.fail(p, "an integer within ±(2^53-1) written without fraction or exponent", v)
	}
}

func wantNumber(v any, p *vpath, e *verrs) {
	if _, ok := asNum(v); !ok {
		e.fail(p, "number", v)
	}
}

func wantObject(v any, p *vpath, e *verrs) {
	if _, ok := v.(map[string]any); !ok {
		e.fail(p, "object", v)
	}
}

// The reporting methods below take no variadic arguments, so in verdict-only mode (quiet)
// nothing is formatted or boxed: a failed check costs a counter increment.

// fail records a kind mismatch.
func (e *verrs) fail(p *vpath, want string, got any) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, "type", "want %s, got %s", want, kindName(got))
}

// msg records a fixed message.
func (e *verrs) msg(p *vpath, text string) {
	if e.quiet {
		e.n++
		return
	}
	kw := "oneOf" // the generator's fixed messages are union-discriminator failures ...
	if strings.HasPrefix(text, "want true") {
		kw = "const" // ... or a required literal
	}
	e.add(p, kw, "%s", text)
}

// str records a string value that is not what the schema wants.
func (e *verrs) str(p *vpath, want, got string) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, wantKeyword(want), "want %s, got %q", want, got)
}

// count records a length or item count out of range. A range ("1..256 UTF-8 bytes") is
// one phrase for both bounds: got below its low end broke the minimum, else the maximum.
func (e *verrs) count(p *vpath, want string, got int) {
	if e.quiet {
		e.n++
		return
	}
	kw := wantKeyword(want)
	if lo, _, ok := strings.Cut(want, ".."); ok {
		if n, err := strconv.Atoi(lo); err == nil && got >= n {
			kw = strings.Replace(kw, "min", "max", 1)
		}
	}
	e.add(p, kw, "want %s, got %d", want, got)
}

func (e *verrs) int(p *vpath, want string, got int64) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, wantKeyword(want), "want %s, got %d", want, got)
}

func (e *verrs) float(p *vpath, want string, got float64) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, wantKeyword(want), "want %s, got %v", want, got)
}

func (e *verrs) unknown(p *vpath, key string) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, "additionalProperties", "unknown field %q", key)
}

func (e *verrs) missing(p *vpath, name string) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, "required", "missing required field %q", name)
}

func (e *verrs) dup(p *vpath, i, j int) {
	if e.quiet {
		e.n++
		return
	}
	e.add(p, "uniqueItems", "items %d and %d are equal", i, j)
}

// codePoints counts the code points of valid UTF-8 (strictjson guarantees validity): every byte
// that is not a continuation byte starts one. Much cheaper than decoding each rune.
func codePoints(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i]&0xC0 != 0x80 {
			n++
		}
	}
	return n
}
