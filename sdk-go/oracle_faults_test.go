package octet

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// The oracle's half of the validation-fault contract
// (docs/conformance.md#validation-faults): santhosh-tekuri reports a tree of
// errors; this file flattens it into faults and picks the one the contract
// names, as the SDK did before it had its own validator.

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
