package jsonschema

import (
	"regexp"
	"strconv"
)

// Applicators to an instance's members: properties, patternProperties,
// additionalProperties and propertyNames on objects, prefixItems, items and
// contains on arrays. They pass on their subschemas' faults at the member's
// pointer; a literal false under additionalProperties or items is reported as
// that keyword at the container.

func isFalse(raw any) bool { b, ok := raw.(bool); return ok && !b }

func unexpectedProperty(name string) string { return "unexpected property " + QuoteString(name) }

func unexpectedItem(index string) string { return "unexpected item at index " + index }

func objectMembers(x *kctx) []check {
	var out []check
	props, hasProps := schemaMap(x, "properties")
	type patternCheck struct {
		re *regexp.Regexp
		c  memberCheck
	}
	var patterns []patternCheck
	if pats, has := schemaMap(x, "patternProperties"); has {
		for _, p := range pats {
			re := x.comp.pattern(p.name, x.at("patternProperties")+"/"+escapeToken(p.name))
			patterns = append(patterns, patternCheck{re, member(p.c, false, "", nil)})
		}
	}
	index := make(map[string]int, len(props))
	checks := make([]memberCheck, len(props))
	for i, p := range props {
		index[p.name] = i
		checks[i] = member(p.c, false, "", nil)
	}
	var extra memberCheck
	if raw, has := x.raw["additionalProperties"]; has {
		extra = member(x.sub("additionalProperties", raw), isFalse(raw), "additionalProperties", unexpectedProperty)
	}
	switch {
	case hasProps && extra != nil && patterns == nil:
		// The common tool schema (properties plus additionalProperties): one pass over the members.
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
			for name, item := range o {
				if ev != nil {
					ev.prop(name)
				}
				c := extra
				if i, known := index[name]; known {
					c = checks[i]
				}
				if c(item, name, -1, st) {
					continue
				}
				ok = false
				if !st.collect {
					return false
				}
			}
			return ok
		})
		return append(out, propertyNames(x)...)
	case hasProps:
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
			for i, p := range props {
				item, has := o[p.name]
				if !has {
					continue
				}
				if ev != nil {
					ev.prop(p.name)
				}
				if checks[i](item, p.name, -1, st) {
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
	if patterns != nil {
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
			for name, item := range o {
				for _, p := range patterns {
					if !p.re.MatchString(name) {
						continue
					}
					if ev != nil {
						ev.prop(name)
					}
					if p.c(item, name, -1, st) {
						continue
					}
					ok = false
					if !st.collect {
						return false
					}
				}
			}
			return ok
		})
	}
	if extra != nil {
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			o, isObj := v.(map[string]any)
			if !isObj {
				return true
			}
			ok := true
		members:
			for name, item := range o {
				if _, known := index[name]; known {
					continue
				}
				for _, p := range patterns {
					if p.re.MatchString(name) {
						continue members
					}
				}
				if ev != nil {
					ev.prop(name)
				}
				if extra(item, name, -1, st) {
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
	return append(out, propertyNames(x)...)
}

func propertyNames(x *kctx) []check {
	raw, has := x.raw["propertyNames"]
	if !has {
		return nil
	}
	c := x.sub("propertyNames", raw)
	return []check{func(v any, st *state, _ *evaluated) bool {
		o, isObj := v.(map[string]any)
		if !isObj {
			return true
		}
		ok := true
		for name := range o {
			if quietly(c, name, st, nil) {
				continue
			}
			ok = false
			if !st.collect {
				return false
			}
			st.report("propertyNames", "invalid property name "+QuoteString(name))
		}
		return ok
	}}
}

func arrayMembers(x *kctx) []check {
	var out []check
	prefix := schemaArray(x, "prefixItems")
	if prefix != nil {
		checks := make([]memberCheck, len(prefix))
		for i, c := range prefix {
			checks[i] = member(c, false, "", nil)
		}
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			a, isArr := v.([]any)
			if !isArr {
				return true
			}
			n := min(len(a), len(checks))
			if ev != nil && n > ev.items {
				ev.items = n
			}
			ok := true
			for i := range n {
				if checks[i](a[i], "", i, st) {
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
	if rest, has := x.raw["items"]; has {
		from := len(prefix)
		c := member(x.sub("items", rest), isFalse(rest), "items", unexpectedItem)
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			a, isArr := v.([]any)
			if !isArr {
				return true
			}
			if ev != nil {
				ev.allItems = true
			}
			ok := true
			for i := from; i < len(a); i++ {
				if c(a[i], "", i, st) {
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
	if raw, has := x.raw["contains"]; has {
		out = append(out, containsCheck(x, x.sub("contains", raw)))
	}
	return out
}

func containsCheck(x *kctx, c check) check {
	lo, hasLo := 1, false
	if x.vocab.validation {
		if n, has := nonNegativeInteger(x, "minContains"); has {
			lo, hasLo = n, true
		}
	}
	hi, hasHi := 0, false
	if x.vocab.validation {
		hi, hasHi = nonNegativeInteger(x, "maxContains")
	}
	return func(v any, st *state, ev *evaluated) bool {
		a, isArr := v.([]any)
		if !isArr {
			return true
		}
		n := 0
		for i, item := range a {
			if !quietly(c, item, st, nil) {
				continue
			}
			n++
			if ev != nil {
				ev.item(i)
			} else if !hasHi && n >= lo {
				return true
			}
		}
		ok := true
		if n < lo {
			ok = false
			if st.collect {
				if hasLo {
					st.report("minContains", "want at least "+strconv.Itoa(lo)+" items matching contains, got "+strconv.Itoa(n))
				} else {
					st.report("contains", "no item matches contains")
				}
			}
		}
		if hasHi && n > hi {
			ok = false
			if st.collect {
				st.report("maxContains", "want at most "+strconv.Itoa(hi)+" items matching contains, got "+strconv.Itoa(n))
			}
		}
		return ok
	}
}
