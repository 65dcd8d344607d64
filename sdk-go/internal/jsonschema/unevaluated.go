package jsonschema

// unevaluatedProperties and unevaluatedItems run after every other keyword of
// their schema object, over the members no other keyword (nor a valid
// subschema) evaluated; the compiler gives them the object's own annotations.

func compileUnevaluated(x *kctx) []check {
	if !x.vocab.unevaluated {
		return nil
	}
	var out []check
	if raw, has := x.raw["unevaluatedProperties"]; has {
		c := member(x.sub("unevaluatedProperties", raw), isFalse(raw), "unevaluatedProperties", unexpectedProperty)
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
			for name, item := range o {
				if ev.hasProp(name) || c(item, name, -1, st) {
					continue
				}
				ok = false
				if !st.collect {
					return false
				}
			}
			if ok {
				ev.allProps = true
			}
			return ok
		})
	}
	if raw, has := x.raw["unevaluatedItems"]; has {
		c := member(x.sub("unevaluatedItems", raw), isFalse(raw), "unevaluatedItems", unexpectedItem)
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			a, isArr := v.([]any)
			if !isArr {
				return true
			}
			ok := true
			for i, item := range a {
				if ev.hasItem(i) || c(item, "", i, st) {
					continue
				}
				ok = false
				if !st.collect {
					return false
				}
			}
			if ok {
				ev.allItems = true
			}
			return ok
		})
	}
	return out
}
