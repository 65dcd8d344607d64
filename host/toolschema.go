package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/octet-kit/octet/host/internal/schemacache"
)

// toolSchemas are a catalog entry's parameters and output_schema, compiled once when the
// entry is published (replaceTools), so judging a call costs one validation and no compile.
// A nil schema judges nothing (output is nil when the tool declares no output_schema).
type toolSchemas struct {
	params *jsonschema.Schema
	output *jsonschema.Schema
	// anyObject: parameters is exactly {"type": "object"} (what most catalogs declare for a
	// tool without arguments schema), so any JSON object passes without parsing it.
	anyObject bool
}

// compileToolSchemas compiles t's schemas with the host's complete 2020-12 validator.
// References are never loaded (no files, no network): a tool schema is self-contained.
func compileToolSchemas(t ToolDefinition) (*toolSchemas, error) {
	s := &toolSchemas{anyObject: isAnyObject(t.Parameters)}
	var err error
	if s.params, err = compileToolSchema(t.Parameters); err != nil {
		return nil, fmt.Errorf("tool %q parameters schema: %v", t.Name, err)
	}
	if len(t.OutputSchema) > 0 {
		if s.output, err = compileToolSchema(t.OutputSchema); err != nil {
			return nil, fmt.Errorf("tool %q output_schema: %v", t.Name, err)
		}
	}
	return s, nil
}

// isAnyObject decodes only the top level: the members' values stay raw, so a large
// parameters schema is not decoded a second time just to learn it is not {"type":"object"}.
func isAnyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || len(m) != 1 {
		return false
	}
	var s string
	return json.Unmarshal(m["type"], &s) == nil && s == "object"
}

// compileToolSchema compiles raw with the host's complete 2020-12 validator, once per
// process while the compiled schema is kept (schemacache): every generation and every
// copy of an extension declares the same bytes. References are never loaded (no files, no
// network): a tool schema is self-contained.
func compileToolSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	return schemacache.Compile(raw)
}

// fault is one schema violation as the fault contract states it: the instance pointer, the
// failing keyword and a reason.
type fault struct {
	pointer, keyword, reason, schemaLoc string
}

// judge validates raw (JSON) against s and returns the reported fault, or nil.
func judge(s *jsonschema.Schema, raw []byte) (*fault, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &fault{keyword: "type", reason: "not valid JSON: " + err.Error()}, nil
	}
	return judgeDoc(s, doc), nil
}

func judgeDoc(s *jsonschema.Schema, doc any) *fault {
	err := s.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &fault{keyword: "schema", reason: err.Error()}
	}
	var all []fault
	collectFaults(ve, &all)
	if len(all) == 0 {
		return &fault{pointer: pointerOf(ve.InstanceLocation), keyword: "schema", reason: ve.ErrorKind.LocalizedString(printer)}
	}
	best := all[0]
	for _, f := range all[1:] {
		if faultLess(f, best) {
			best = f
		}
	}
	return &best
}

// collectFaults gathers the leaves of a validation error tree. Combinators whose failure is
// about branches (anyOf, oneOf, not) are faults themselves: their branches' inner faults
// are not reported (fault contract).
func collectFaults(ve *jsonschema.ValidationError, out *[]fault) {
	kw := keywordOf(ve)
	if len(ve.Causes) == 0 || kw == "anyOf" || kw == "oneOf" || kw == "not" {
		if kw == "" {
			return
		}
		loc := ve.InstanceLocation
		reason := ve.ErrorKind.LocalizedString(printer)
		// santhosh-tekuri reports an unevaluated member as the false schema at the member;
		// the contract names the keyword at the object, as additionalProperties is reported.
		for _, u := range []string{"unevaluatedProperties", "unevaluatedItems"} {
			if kw == "false" && len(loc) > 0 && strings.HasSuffix(ve.SchemaURL, "/"+u) {
				kw, reason = u, fmt.Sprintf("%s: %q is not allowed", u, loc[len(loc)-1])
				loc = loc[:len(loc)-1]
			}
		}
		*out = append(*out, fault{pointer: pointerOf(loc), keyword: kw, reason: reason, schemaLoc: ve.SchemaURL})
		return
	}
	for _, c := range ve.Causes {
		collectFaults(c, out)
	}
}

func keywordOf(ve *jsonschema.ValidationError) string {
	if path := ve.ErrorKind.KeywordPath(); len(path) > 0 {
		return path[0]
	}
	switch ve.ErrorKind.(type) {
	case *kind.FalseSchema:
		return "false"
	case *kind.Not:
		return "not"
	}
	return ""
}

// keywordRank is the fault contract's fixed keyword order (the second sort key).
var keywordRank = func() map[string]int {
	order := []string{"false", "type", "const", "enum", "required", "dependentRequired", "minProperties", "maxProperties",
		"additionalProperties", "propertyNames", "unevaluatedProperties", "minItems", "maxItems", "uniqueItems", "contains",
		"minContains", "maxContains", "unevaluatedItems", "items", "prefixItems", "minLength", "maxLength", "pattern",
		"format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "anyOf", "oneOf", "not"}
	m := make(map[string]int, len(order))
	for i, k := range order {
		m[k] = i
	}
	return m
}()

func rank(kw string) int {
	if r, ok := keywordRank[kw]; ok {
		return r
	}
	return len(keywordRank)
}

// faultLess orders faults by instance pointer token by token (a prefix first, so shallower
// faults win), then keyword rank, then schema location.
func faultLess(a, b fault) bool {
	ta, tb := splitPointer(a.pointer), splitPointer(b.pointer)
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if c := slices.Compare([]rune(ta[i]), []rune(tb[i])); c != 0 {
			return c < 0
		}
	}
	if len(ta) != len(tb) {
		return len(ta) < len(tb)
	}
	if ra, rb := rank(a.keyword), rank(b.keyword); ra != rb {
		return ra < rb
	}
	return a.schemaLoc < b.schemaLoc
}

func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p[1:], "/")
}

// pointerOf turns instance location tokens into an RFC 6901 JSON pointer.
func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// displayPointer is a pointer as messages print it: the root is "(root)".
func displayPointer(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

// Fault is the reported violation of a JSON Schema as the fault contract selects it: the
// instance pointer (RFC 6901, "" the root), the failing keyword and the validator's reason.
type Fault struct {
	Pointer, Keyword, Reason string
}

// JudgeSchema validates instance against schema with the host's complete 2020-12 validator
// and returns the fault the contract reports (nil when valid). The conformance suite and
// its raw fixture use it, so the SDKs' answers are compared with the host's verdict.
func JudgeSchema(schema, instance json.RawMessage) (*Fault, error) {
	s, err := compileToolSchema(schema)
	if err != nil {
		return nil, err
	}
	f, err := judge(s, instance)
	if err != nil || f == nil {
		return nil, err
	}
	return &Fault{Pointer: f.pointer, Keyword: f.keyword, Reason: f.reason}, nil
}

// printer words the jsonschema library's findings about an author's tool schema (those
// schemas are the extension's, compiled at run time; the wire's own are generated).
var printer = message.NewPrinter(language.English)
