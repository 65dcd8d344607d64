package jsonschema

import (
	"fmt"
	"strconv"
)

// In-place applicators: allOf, anyOf, oneOf, not, if/then/else and
// dependentSchemas judge the instance itself. anyOf, oneOf and not report
// themselves (their branches' faults are not reported); the others pass on
// their subschemas' faults. A passing subschema's annotations count for
// unevaluated*.

func schemaArray(x *kctx, kw string) []check {
	raw, has := x.raw[kw]
	if !has {
		return nil
	}
	list, ok := raw.([]any)
	if !ok || len(list) == 0 {
		fail(x.at(kw), kw+" must be a non-empty array of schemas")
	}
	out := make([]check, len(list))
	for i, s := range list {
		out[i] = x.sub(kw+"/"+strconv.Itoa(i), s)
	}
	return out
}

type namedCheck struct {
	name string
	c    check
	raw  any
}

func schemaMap(x *kctx, kw string) ([]namedCheck, bool) {
	raw, has := x.raw[kw]
	if !has {
		return nil, false
	}
	m, ok := raw.(map[string]any)
	if !ok {
		fail(x.at(kw), kw+" must be an object of schemas")
	}
	out := make([]namedCheck, 0, len(m))
	for _, name := range sortedKeys(m) { // sorted: compile errors are deterministic
		out = append(out, namedCheck{name, x.sub(kw+"/"+escapeToken(name), m[name]), m[name]})
	}
	return out, true
}

func inPlace(x *kctx) []check {
	var out []check
	if all := schemaArray(x, "allOf"); all != nil {
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			ok := true
			for _, c := range all {
				if !c(v, st, ev) {
					ok = false
					if !st.collect {
						return false
					}
				}
			}
			return ok
		})
	}
	if anyOf := schemaArray(x, "anyOf"); anyOf != nil {
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			ok := false
			for _, c := range anyOf {
				if ev == nil {
					if quietly(c, v, st, nil) {
						return true
					}
					continue
				}
				// Annotations wanted: every branch is evaluated, each passing one counts.
				mine := &evaluated{}
				if quietly(c, v, st, mine) {
					ok = true
					ev.merge(mine)
				}
			}
			if !ok && st.collect {
				st.report("anyOf", "matches no anyOf branch")
			}
			return ok
		})
	}
	if one := schemaArray(x, "oneOf"); one != nil {
		out = append(out, oneOf(one))
	}
	if raw, has := x.raw["not"]; has {
		not := x.sub("not", raw)
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			// Collecting for unevaluated*, a matching not schema's annotations count, as in the other SDKs.
			var mine *evaluated
			if ev != nil && st.collect {
				mine = &evaluated{}
			}
			if !quietly(not, v, st, mine) {
				return true
			}
			if st.collect {
				if mine != nil {
					ev.merge(mine)
				}
				st.report("not", "matches the not schema")
			}
			return false
		})
	}
	out = append(out, conditional(x)...)
	if deps, has := schemaMap(x, "dependentSchemas"); has {
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
			for _, d := range deps {
				if _, has := o[d.name]; !has || d.c(v, st, ev) {
					continue
				}
				ok = false
				if !st.collect {
					return false
				}
			}
			return ok
		})
	}
	return out
}

func oneOf(one []check) check {
	return func(v any, st *state, ev *evaluated) bool {
		first, second := -1, -1
		var won *evaluated
		// Collecting faults for unevaluated*, every passing branch counts, as in the other SDKs.
		var all *evaluated
		if ev != nil && st.collect {
			all = &evaluated{}
		}
		for i, c := range one {
			var mine *evaluated
			if ev != nil {
				mine = &evaluated{}
			}
			if !quietly(c, v, st, mine) {
				continue
			}
			if all != nil {
				all.merge(mine)
			}
			if first < 0 {
				first, won = i, mine
			} else if second < 0 {
				second = i
				if all == nil {
					break
				}
			}
		}
		if first >= 0 && second < 0 {
			if ev != nil {
				ev.merge(won)
			}
			return true
		}
		if all != nil {
			ev.merge(all)
		}
		if st.collect {
			if first < 0 {
				st.report("oneOf", "matches no oneOf branch")
			} else {
				st.report("oneOf", fmt.Sprintf("matches oneOf branches %d and %d", first, second))
			}
		}
		return false
	}
}

func conditional(x *kctx) []check {
	rawIf, has := x.raw["if"]
	if !has {
		for _, kw := range [...]string{"then", "else"} {
			if raw, has := x.raw[kw]; has {
				x.sub(kw, raw) // still compiled: refused if bad
			}
		}
		return nil
	}
	cond := x.sub("if", rawIf)
	var then, otherwise check
	if raw, has := x.raw["then"]; has {
		then = x.sub("then", raw)
	}
	if raw, has := x.raw["else"]; has {
		otherwise = x.sub("else", raw)
	}
	if then == nil && otherwise == nil {
		// if alone asserts nothing, but its annotations count for unevaluated* when it holds.
		return []check{func(v any, st *state, ev *evaluated) bool {
			if ev == nil {
				return true
			}
			mine := &evaluated{}
			if quietly(cond, v, st, mine) {
				ev.merge(mine)
			}
			return true
		}}
	}
	return []check{func(v any, st *state, ev *evaluated) bool {
		var mine *evaluated
		if ev != nil {
			mine = &evaluated{}
		}
		if quietly(cond, v, st, mine) {
			if ev != nil {
				ev.merge(mine)
			}
			return then == nil || then(v, st, ev)
		}
		return otherwise == nil || otherwise(v, st, ev)
	}}
}
