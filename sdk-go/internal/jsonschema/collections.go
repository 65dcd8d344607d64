package jsonschema

import "fmt"

// The validation vocabulary's array and object assertions (counts, uniqueItems,
// required, dependentRequired), and the order a schema object runs its
// assertions in.

func compileArray(x *kctx) []check {
	var out []check
	for _, kw := range [...]string{"minItems", "maxItems"} {
		n, has := nonNegativeInteger(x, kw)
		if !has {
			continue
		}
		isMin := kw == "minItems"
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			a, ok := v.([]any)
			if !ok || (isMin && len(a) >= n) || (!isMin && len(a) <= n) {
				return true
			}
			if st.collect {
				if isMin {
					st.report(kw, fmt.Sprintf("want at least %d items, got %d", n, len(a)))
				} else {
					st.report(kw, fmt.Sprintf("want at most %d items, got %d", n, len(a)))
				}
			}
			return false
		})
	}
	if raw, has := x.raw["uniqueItems"]; has {
		unique, ok := raw.(bool)
		if !ok {
			fail(x.at("uniqueItems"), "uniqueItems must be a boolean")
		}
		if unique {
			out = append(out, func(v any, st *state, _ *evaluated) bool {
				a, ok := v.([]any)
				if !ok || len(a) < 2 {
					return true
				}
				i, k, dup := firstDuplicate(a)
				if !dup {
					return true
				}
				if st.collect {
					st.report("uniqueItems", fmt.Sprintf("items %d and %d are equal", i, k))
				}
				return false
			})
		}
	}
	return out
}

func compileObject(x *kctx) []check {
	var out []check
	for _, kw := range [...]string{"minProperties", "maxProperties"} {
		n, has := nonNegativeInteger(x, kw)
		if !has {
			continue
		}
		isMin := kw == "minProperties"
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			o, ok := v.(map[string]any)
			if !ok || (isMin && len(o) >= n) || (!isMin && len(o) <= n) {
				return true
			}
			if st.collect {
				if isMin {
					st.report(kw, fmt.Sprintf("want at least %d properties, got %d", n, len(o)))
				} else {
					st.report(kw, fmt.Sprintf("want at most %d properties, got %d", n, len(o)))
				}
			}
			return false
		})
	}
	if raw, has := x.raw["required"]; has {
		names := stringArray("required", raw, x.at("required"))
		if len(names) > 0 {
			out = append(out, func(v any, st *state, _ *evaluated) bool {
				o, isObj := v.(map[string]any)
				if !isObj {
					return true
				}
				ok := true
				for _, name := range names {
					if _, has := o[name]; has {
						continue
					}
					if !st.collect {
						return false
					}
					ok = false
					st.report("required", "missing required property "+QuoteString(name))
				}
				return ok
			})
		}
	}
	if raw, has := x.raw["dependentRequired"]; has {
		deps, ok := raw.(map[string]any)
		if !ok {
			fail(x.at("dependentRequired"), "dependentRequired must be an object")
		}
		type rule struct {
			because string
			names   []string
		}
		var rules []rule
		for _, because := range sortedKeys(deps) {
			rules = append(rules, rule{because, stringArray("dependentRequired", deps[because], x.at("dependentRequired")+"/"+escapeToken(because))})
		}
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
			for _, r := range rules {
				if _, has := o[r.because]; !has {
					continue
				}
				for _, name := range r.names {
					if _, has := o[name]; has {
						continue
					}
					if !st.collect {
						return false
					}
					ok = false
					st.report("dependentRequired", "missing property "+QuoteString(name)+", required by "+QuoteString(r.because))
				}
			}
			return ok
		})
	}
	return out
}

// compileGates: type, const and enum, in that order. When one fails it is the
// schema object's only fault (its other keywords are not evaluated), as in
// the other SDKs.
func compileGates(x *kctx) []check {
	if !x.vocab.validation {
		return nil
	}
	var out []check
	if t := compileType(x); t != nil {
		out = append(out, t)
	}
	return append(out, compileConstEnum(x)...)
}

// compileAssertions: the validation vocabulary's other keywords (and format).
func compileAssertions(x *kctx) []check {
	if !x.vocab.validation {
		return nil
	}
	out := compileNumeric(x)
	out = append(out, compileString(x)...)
	out = append(out, compileArray(x)...)
	return append(out, compileObject(x)...)
}
