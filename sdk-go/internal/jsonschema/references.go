package jsonschema

import "strings"

// $ref and $dynamicRef: resolved when the schema compiles. A $dynamicRef is
// dynamic only when its static target carries the same $dynamicAnchor; then
// the outermost resource in the dynamic scope with that anchor wins.

func (c *compiler) references(x *kctx) []check {
	var out []check
	for _, kw := range [...]string{"$ref", "$dynamicRef"} {
		raw, has := x.raw[kw]
		if !has {
			continue
		}
		at := x.at(kw)
		ref, ok := raw.(string)
		if !ok {
			fail(at, kw+" must be a string")
		}
		uri := resolveURI(x.place.res.uri, ref)
		t := c.reg.resolve(uri, at)
		to := c.node(t.raw, t.res, t.ptr, t.doc)
		name := ""
		if kw == "$dynamicRef" {
			if _, frag, ok := splitFragment(uri); ok && frag != "" && !strings.HasPrefix(frag, "/") {
				if m, isObj := t.raw.(map[string]any); isObj && m["$dynamicAnchor"] == frag {
					name = frag
				}
			}
		}
		dynamic := c.dynamic
		out = append(out, func(v any, st *state, ev *evaluated) bool {
			n := to
			if name != "" {
				for _, r := range st.dyn {
					if r.hasDynamicAnchor(name) {
						if found := dynamic[r][name]; found != nil {
							n = found
						}
						break
					}
				}
			}
			if st.depth >= maxDepth {
				st.tooDeep = true
				return false
			}
			st.depth++
			var ok bool
			if n.isRoot || len(n.res.dynamicAnchors) == 0 {
				ok = n.fn(v, st, ev)
			} else {
				st.dyn = append(st.dyn, n.res)
				ok = n.fn(v, st, ev)
				st.dyn = st.dyn[:len(st.dyn)-1]
			}
			st.depth--
			return ok
		})
	}
	return out
}
