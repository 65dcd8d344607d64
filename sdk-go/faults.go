package octet

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/big"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The validation-fault contract (docs/conformance.md#validation-faults): the
// Go, Python and TypeScript SDKs answer the same bad arguments with the same
// pointer, keyword and reason. santhosh-tekuri reports a tree of errors; this
// file flattens it into faults and picks the one the contract names.

// fault is one failing keyword: the instance pointer (RFC 6901), the keyword
// ("false" for a false schema) and the reason in the contract's wording.
type fault struct {
	tokens  []string // the pointer's tokens, unescaped, for comparing
	keyword string
	reason  string
}

// pointer is the fault's RFC 6901 JSON pointer ("" for the instance itself).
func (f fault) pointer() string {
	var b strings.Builder
	for _, t := range f.tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// keywordRank orders keywords of faults at the same pointer (the contract's
// fixed list); an unlisted keyword sorts last.
var keywordRank = func() map[string]int {
	m := map[string]int{}
	for i, k := range []string{"false", "type", "const", "enum", "required", "dependentRequired",
		"minProperties", "maxProperties", "additionalProperties", "propertyNames",
		"unevaluatedProperties", "minItems", "maxItems", "uniqueItems", "contains",
		"minContains", "maxContains", "unevaluatedItems", "items", "prefixItems", "minLength",
		"maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
		"exclusiveMaximum", "multipleOf", "anyOf", "oneOf", "not"} {
		m[k] = i
	}
	return m
}()

func rank(keyword string) int {
	if r, ok := keywordRank[keyword]; ok {
		return r
	}
	return len(keywordRank)
}

// less is the contract's order: pointer token by token (a prefix first), then
// keyword rank, then reason. Go compares strings bytewise, which for UTF-8 is
// Unicode code point order.
func (f fault) less(g fault) bool {
	for i := 0; i < len(f.tokens) && i < len(g.tokens); i++ {
		if f.tokens[i] != g.tokens[i] {
			return f.tokens[i] < g.tokens[i]
		}
	}
	if len(f.tokens) != len(g.tokens) {
		return len(f.tokens) < len(g.tokens)
	}
	if rf, rg := rank(f.keyword), rank(g.keyword); rf != rg {
		return rf < rg
	}
	return f.reason < g.reason
}

// reportedFault is the minimum fault of a validation error tree. offsets
// corrects santhosh-tekuri v6.0.2's instance locations under an `items` that
// follows `prefixItems` (see itemOffsets).
func reportedFault(ve *validator.ValidationError, offsets map[string]int, inst any) fault {
	w := faultWalk{offsets: offsets, inst: inst}
	w.visit(ve, nil, nil, "")
	if len(w.out) == 0 { // not expected: every leaf maps to a fault
		return fault{keyword: "", reason: ve.Error()}
	}
	best := w.out[0]
	for _, f := range w.out[1:] {
		if f.less(best) {
			best = f
		}
	}
	return best
}

type faultWalk struct {
	offsets map[string]int
	inst    any
	out     []fault
}

// visit walks the error tree: applicators that pass their subschema's faults
// on (allOf, $ref, the root group) are descended into; every other kind is a
// fault of its own and its causes are not reported. fixes are index
// corrections (token position -> amount) inherited from above; parentAt and
// parentURL are the nearest ancestor's (corrected) location and schema.
func (w *faultWalk) visit(ve *validator.ValidationError, fixes map[int]int, parentAt []string, parentURL string) {
	at := ve.InstanceLocation
	for loc, n := range w.offsets {
		rel, ok := relativeTokens(loc, ve.SchemaURL)
		if !ok {
			continue
		}
		// An error of an items schema after n prefixItems (or below it): the
		// item's token, here and in every error below, is n too small.
		if d := len(at) - 1 - descents(rel); d >= 0 {
			fixes = maps.Clone(fixes)
			if fixes == nil {
				fixes = map[int]int{}
			}
			fixes[d] = n
		}
	}
	if len(fixes) > 0 {
		at = slices.Clone(at)
		for i, n := range fixes {
			if i < len(at) {
				if idx, err := strconv.Atoi(at[i]); err == nil {
					at[i] = strconv.Itoa(idx + n)
				}
			}
		}
	}
	if pn, ok := ve.ErrorKind.(*kind.PropertyNames); ok {
		// santhosh-tekuri validates property names as a fresh instance, so this
		// error has no location: it is the object's, found from the nearest
		// ancestor by the schema path between them.
		at = slices.Clone(parentAt)
		if rel, ok := relativeTokens(parentURL, ve.SchemaURL); ok {
			at = w.objectHaving(at, rel, pn.Property)
		}
	}
	add := func(keyword, reason string) {
		w.out = append(w.out, fault{tokens: at, keyword: keyword, reason: reason})
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		for _, c := range ve.Causes {
			w.visit(c, fixes, at, ve.SchemaURL)
		}
	case *kind.FalseSchema:
		// A false schema under these four keywords is reported as the keyword,
		// at the container, naming the rejected member.
		if kw := parentKeyword(ve.SchemaURL); kw != "" && len(at) > 0 {
			name := at[len(at)-1]
			at = at[:len(at)-1]
			if kw == "items" || kw == "unevaluatedItems" {
				add(kw, "unexpected item at index "+name)
			} else {
				add(kw, "unexpected property "+faultJSON(name))
			}
			return
		}
		add("false", "no value is allowed")
	case *kind.Type:
		add("type", fmt.Sprintf("want type %s, got %s", strings.Join(k.Want, " or "), k.Got))
	case *kind.Const:
		add("const", "want constant "+faultJSON(k.Want))
	case *kind.Enum:
		add("enum", "want one of "+faultJSON(k.Want))
	case *kind.Required:
		for _, m := range k.Missing {
			add("required", "missing required property "+faultJSON(m))
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			add("dependentRequired", fmt.Sprintf("missing property %s, required by %s", faultJSON(m), faultJSON(k.Prop)))
		}
	case *kind.MinProperties:
		add("minProperties", fmt.Sprintf("want at least %d properties, got %d", k.Want, k.Got))
	case *kind.MaxProperties:
		add("maxProperties", fmt.Sprintf("want at most %d properties, got %d", k.Want, k.Got))
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			add("additionalProperties", "unexpected property "+faultJSON(p))
		}
	case *kind.PropertyNames:
		add("propertyNames", "invalid property name "+faultJSON(k.Property))
	case *kind.MinItems:
		add("minItems", fmt.Sprintf("want at least %d items, got %d", k.Want, k.Got))
	case *kind.MaxItems:
		add("maxItems", fmt.Sprintf("want at most %d items, got %d", k.Want, k.Got))
	case *kind.UniqueItems:
		add("uniqueItems", fmt.Sprintf("items %d and %d are equal", k.Duplicates[0], k.Duplicates[1]))
	case *kind.Contains:
		add("contains", "no item matches contains")
	case *kind.MinContains:
		add("minContains", fmt.Sprintf("want at least %d items matching contains, got %d", k.Want, len(k.Got)))
	case *kind.MaxContains:
		add("maxContains", fmt.Sprintf("want at most %d items matching contains, got %d", k.Want, len(k.Got)))
	case *kind.MinLength:
		add("minLength", fmt.Sprintf("want at least %d characters, got %d", k.Want, k.Got))
	case *kind.MaxLength:
		add("maxLength", fmt.Sprintf("want at most %d characters, got %d", k.Want, k.Got))
	case *kind.Pattern:
		add("pattern", "want a string matching "+faultJSON(k.Want))
	case *kind.Format:
		add("format", "want format "+faultJSON(k.Want))
	case *kind.Minimum:
		add("minimum", fmt.Sprintf("want at least %s, got %s", ratString(k.Want), ratString(k.Got)))
	case *kind.Maximum:
		add("maximum", fmt.Sprintf("want at most %s, got %s", ratString(k.Want), ratString(k.Got)))
	case *kind.ExclusiveMinimum:
		add("exclusiveMinimum", fmt.Sprintf("want more than %s, got %s", ratString(k.Want), ratString(k.Got)))
	case *kind.ExclusiveMaximum:
		add("exclusiveMaximum", fmt.Sprintf("want less than %s, got %s", ratString(k.Want), ratString(k.Got)))
	case *kind.MultipleOf:
		add("multipleOf", fmt.Sprintf("want a multiple of %s, got %s", ratString(k.Want), ratString(k.Got)))
	case *kind.AnyOf:
		add("anyOf", "matches no anyOf branch")
	case *kind.OneOf:
		if len(k.Subschemas) == 2 {
			add("oneOf", fmt.Sprintf("matches oneOf branches %d and %d", k.Subschemas[0], k.Subschemas[1]))
		} else {
			add("oneOf", "matches no oneOf branch")
		}
	case *kind.Not:
		add("not", "matches the not schema")
	default: // keywords of older drafts and content vocabularies: worded by the library
		kw := ""
		if p := ve.ErrorKind.KeywordPath(); len(p) > 0 {
			kw = p[0]
		}
		add(kw, ve.ErrorKind.LocalizedString(printer()))
	}
}

// relativeTokens is the schema path from base to target (both schema URLs)
// when target lies in or below base, unescaped.
func relativeTokens(base, target string) ([]string, bool) {
	bDoc, bFrag := splitSchemaURL(base)
	tDoc, tFrag := splitSchemaURL(target)
	if bDoc != tDoc || len(tFrag) < len(bFrag) || !slices.Equal(tFrag[:len(bFrag)], bFrag) {
		return nil, false
	}
	return tFrag[len(bFrag):], true
}

func splitSchemaURL(u string) (string, []string) {
	doc, frag, _ := strings.Cut(u, "#")
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	frag = strings.TrimPrefix(frag, "/")
	if frag == "" {
		return doc, nil
	}
	tokens := strings.Split(frag, "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return doc, tokens
}

// descents counts the keywords on a schema path that step into a member of
// the instance (properties/x, items, ...); instanceTokens names those steps
// where the schema path tells (properties/x is x; prefixItems/3 is 3) and
// stops at the first that does not (items: which item is not in the path).
func descents(path []string) int {
	n := 0
	walkSchemaPath(path, func(kw, arg string) bool {
		switch kw {
		case "properties", "patternProperties", "prefixItems", "additionalProperties",
			"unevaluatedProperties", "items", "unevaluatedItems", "contains", "additionalItems":
			n++
		}
		return true
	})
	return n
}

// objectHaving is the location of the object a propertyNames fault is about:
// from the ancestor at at, follow the schema path; where it does not name the
// member (items, additionalProperties, ...), take the members in pointer order
// and keep the first path that reaches an object with the failing name (the
// same name fails the same propertyNames schema wherever it is applied).
func (w *faultWalk) objectHaving(at, path []string, name string) []string {
	type step struct{ kw, arg string }
	var steps []step
	walkSchemaPath(path, func(kw, arg string) bool {
		switch kw {
		case "properties", "prefixItems", "patternProperties", "additionalProperties",
			"unevaluatedProperties", "items", "unevaluatedItems", "contains", "additionalItems":
			steps = append(steps, step{kw, arg})
		}
		return true
	})
	var best []string
	var search func(v any, loc []string, rest []step)
	search = func(v any, loc []string, rest []step) {
		if len(rest) == 0 {
			if obj, ok := v.(map[string]any); ok {
				if _, has := obj[name]; has && (best == nil || (fault{tokens: loc}).less(fault{tokens: best})) {
					best = slices.Clone(loc)
				}
			}
			return
		}
		st := rest[0]
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if st.kw == "prefixItems" || st.kw == "properties" && k != st.arg {
					continue
				}
				search(x, append(slices.Clone(loc), k), rest[1:])
			}
		case []any:
			for i, x := range v {
				if st.kw == "prefixItems" && strconv.Itoa(i) != st.arg || st.kw == "properties" {
					continue
				}
				search(x, append(slices.Clone(loc), strconv.Itoa(i)), rest[1:])
			}
		}
	}
	search(valueAt(w.inst, at), at, steps)
	if best == nil {
		return at
	}
	return best
}

// valueAt is the instance's value at a location (nil when there is none).
func valueAt(v any, at []string) any {
	for _, t := range at {
		switch x := v.(type) {
		case map[string]any:
			v = x[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// walkSchemaPath calls f with each keyword of a schema path and, for the
// keywords followed by a name or an index, that token.
func walkSchemaPath(path []string, f func(kw, arg string) bool) {
	for i := 0; i < len(path); i++ {
		kw, arg := path[i], ""
		switch kw {
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
			"prefixItems", "allOf", "anyOf", "oneOf", "dependencies":
			if i+1 < len(path) {
				i++
				arg = path[i]
			}
		}
		if !f(kw, arg) {
			return
		}
	}
}

// parentKeyword names the keyword a false schema sits under, when it is one
// of the four the contract reports at the container ("" otherwise). The schema
// URL's fragment is a JSON pointer into the schema; a token after properties,
// patternProperties, $defs or dependentSchemas is a name, after prefixItems,
// allOf, anyOf or oneOf an index, so "properties/items" is not the keyword.
func parentKeyword(schemaURL string) string {
	_, path := splitSchemaURL(schemaURL)
	last := ""
	walkSchemaPath(path, func(kw, arg string) bool {
		last = kw
		if arg != "" {
			last = ""
		}
		return true
	})
	switch last {
	case "additionalProperties", "unevaluatedProperties", "items", "unevaluatedItems":
		return last
	}
	return ""
}

// ratString prints a number as the contract does: the nearest float64 in
// ECMAScript's Number.prototype.toString form.
func ratString(r *big.Rat) string {
	if r == nil {
		return "null"
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) { // beyond float64: exact digits (only an integer gets here in practice)
		if r.IsInt() {
			return r.Num().String()
		}
		return r.FloatString(20)
	}
	return esNumber(f)
}

// esNumber formats f as ECMAScript's Number.prototype.toString (shortest
// round-trip digits; plain notation for exponents -7 < e < 21).
func esNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return sign + m + "e" + es + strconv.Itoa(abs(n-1))
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// faultJSON writes a value as the contract's compact JSON: sorted keys, only
// quote, backslash and control characters escaped, numbers as esNumber.
func faultJSON(v any) string {
	var b strings.Builder
	writeFaultJSON(&b, v)
	return b.String()
}

func writeFaultJSON(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeFaultString(b, v)
	case json.Number:
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			b.WriteString(esNumber(f))
		} else {
			b.WriteString(string(v))
		}
	case float64:
		b.WriteString(esNumber(v))
	case int:
		b.WriteString(esNumber(float64(v)))
	case int64:
		b.WriteString(esNumber(float64(v)))
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeFaultJSON(b, x)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeFaultString(b, k)
			b.WriteByte(':')
			writeFaultJSON(b, v[k])
		}
		b.WriteByte('}')
	default:
		raw, _ := json.Marshal(v)
		b.Write(raw)
	}
}

func writeFaultString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// itemOffsets maps the location of every `items` schema that follows
// `prefixItems` to the number of prefixItems, walking every schema reachable
// from root. santhosh-tekuri v6.0.2 validates those items as arr[n:] and names
// them by their index in that slice; the fault must name the real index.
func itemOffsets(root *validator.Schema) map[string]int {
	out := map[string]int{}
	seen := map[*validator.Schema]bool{}
	var walk func(s *validator.Schema)
	walkAny := func(v any) {
		switch v := v.(type) {
		case *validator.Schema:
			walk(v)
		case []*validator.Schema:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk = func(s *validator.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Items2020 != nil && len(s.PrefixItems) > 0 {
			out[s.Items2020.Location] = len(s.PrefixItems)
		}
		for _, x := range []*validator.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else,
			s.PropertyNames, s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema} {
			walk(x)
		}
		if s.DynamicRef != nil {
			walk(s.DynamicRef.Ref)
		}
		for _, list := range [][]*validator.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, x := range list {
				walk(x)
			}
		}
		for _, x := range s.Properties {
			walk(x)
		}
		for _, x := range s.PatternProperties {
			walk(x)
		}
		for _, x := range s.DependentSchemas {
			walk(x)
		}
		for _, x := range s.Dependencies {
			walkAny(x)
		}
		walkAny(s.AdditionalProperties)
		walkAny(s.Items)
		walkAny(s.AdditionalItems)
	}
	walk(root)
	return out
}
