package octet

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
)

// Locations in santhosh-tekuri's error tree: schema paths (which keyword a
// false schema sits under) and the two instance locations v6.0.2 gets wrong,
// corrected so the fault contract's pointer is the real one.
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
