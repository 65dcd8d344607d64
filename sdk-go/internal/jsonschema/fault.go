package jsonschema

import "strings"

// Validation faults and the one order that picks THE fault of a failed instance
// (docs/conformance.md#validation-faults), the same order as the Python and
// TypeScript validators, so the three SDKs put the same fault on the wire.

// Fault is one failing keyword: where in the instance, which keyword ("false"
// for a false schema) and why, in the contract's fixed English wording.
type Fault struct {
	Tokens  []string // the instance pointer's tokens, unescaped ("" pointer: none)
	Keyword string
	Reason  string
}

// Pointer is the fault's RFC 6901 JSON pointer ("" for the instance itself).
func (f Fault) Pointer() string { return Pointer(f.Tokens) }

// Pointer joins tokens into an RFC 6901 pointer, escaping ~ and /.
func Pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapeToken(t))
	}
	return b.String()
}

func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// keywordOrder is the contract's fixed rank of keywords at the same pointer; an
// unlisted keyword sorts last.
var keywordOrder = [...]string{"false", "type", "const", "enum", "required", "dependentRequired",
	"minProperties", "maxProperties", "additionalProperties", "propertyNames",
	"unevaluatedProperties", "minItems", "maxItems", "uniqueItems", "contains",
	"minContains", "maxContains", "unevaluatedItems", "items", "prefixItems", "minLength",
	"maxLength", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "multipleOf", "anyOf", "oneOf", "not"}

// rank is a linear scan: it runs only when choosing among faults, and a map
// built at init would cost every start.
func rank(keyword string) int {
	for i, k := range keywordOrder {
		if k == keyword {
			return i
		}
	}
	return len(keywordOrder)
}

// Less is the contract's order: pointer token by token (a prefix first; Go
// compares strings bytewise, which for UTF-8 is code point order), then keyword
// rank, then reason (validators spell schema locations differently, so equal
// pointer, keyword and reason are one answer).
func (f Fault) Less(g Fault) bool {
	for i := 0; i < len(f.Tokens) && i < len(g.Tokens); i++ {
		if f.Tokens[i] != g.Tokens[i] {
			return f.Tokens[i] < g.Tokens[i]
		}
	}
	if len(f.Tokens) != len(g.Tokens) {
		return len(f.Tokens) < len(g.Tokens)
	}
	if rf, rg := rank(f.Keyword), rank(g.Keyword); rf != rg {
		return rf < rg
	}
	return f.Reason < g.Reason
}

// Least is the reported fault of a set: the minimum by Less (false when empty).
func Least(faults []Fault) (Fault, bool) {
	if len(faults) == 0 {
		return Fault{}, false
	}
	best := faults[0]
	for _, f := range faults[1:] {
		if f.Less(best) {
			best = f
		}
	}
	return best, true
}
