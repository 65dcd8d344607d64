package jsonschema

import "regexp"

type regexpT = regexp.Regexp

// The compiler: a schema becomes a tree of closures once, references are
// resolved (and an unresolvable one refused) at compile time, and validation
// is a boolean walk that allocates nothing for a valid instance. The same
// design as sdk-typescript's jsonschema/compile.ts.

// node is one compiled schema object. fn is final once done; while the
// object's own keywords compile (a $ref cycle) callers go through the node.
type node struct {
	fn     check
	res    *resource
	isRoot bool
	done   bool
}

func pass(any, *state, *evaluated) bool { return true }

func falseSchema(_ any, st *state, _ *evaluated) bool {
	if st.collect {
		st.report("false", "no value is allowed")
	}
	return false
}

// kctx is what a keyword compiler sees of the schema object it compiles.
type kctx struct {
	comp         *compiler
	raw          map[string]any
	base         string // the object's location, for faults and compile errors
	place        place
	vocab        vocab
	assertFormat bool
}

func (x *kctx) at(kw string) string { return x.base + "/" + escapeToken(kw) }

// sub compiles the subschema at <this object>/path (path already escaped).
func (x *kctx) sub(path string, raw any) check {
	if b, ok := raw.(bool); ok && b {
		return pass
	}
	n := x.comp.node(raw, x.place.res, x.place.ptr+"/"+path, x.place.doc)
	if n.done {
		return n.fn
	}
	return func(v any, st *state, ev *evaluated) bool { return n.fn(v, st, ev) }
}

type compiler struct {
	reg          *registry
	nodes        map[unsafeKey]*node
	dynamic      map[*resource]map[string]*node
	patterns     map[string]*regexpT
	assertFormat bool
}

func (c *compiler) pattern(source, at string) *regexpT {
	if re, ok := c.patterns[source]; ok {
		return re
	}
	re, err := PortableRegexp(source)
	if err != nil {
		fail(at, err.Error())
	}
	c.patterns[source] = re
	return re
}

func (c *compiler) node(raw any, res *resource, ptr, doc string) *node {
	switch s := raw.(type) {
	case bool:
		if s {
			return &node{fn: pass, res: res, done: true}
		}
		return &node{fn: falseSchema, res: res, done: true}
	case map[string]any:
		if known, ok := c.nodes[identity(s)]; ok {
			return known
		}
		p, ok := c.reg.placeOf(s)
		if !ok { // a schema where indexing did not look (under an unknown keyword)
			c.reg.index(s, res, ptr, doc, false)
			p, _ = c.reg.placeOf(s)
		}
		n := &node{fn: pass, res: p.res, isRoot: identity(s) == rootIdentity(p.res)}
		c.nodes[identity(s)] = n // before the keywords: a cycle of references finds it
		c.compileObject(n, s, p)
		return n
	}
	fail(label(doc, ptr), "a schema must be an object or a boolean")
	return nil
}

func rootIdentity(r *resource) unsafeKey {
	if m, ok := r.root.(map[string]any); ok {
		return identity(m)
	}
	return nil
}

func (c *compiler) compileObject(n *node, s map[string]any, p place) {
	x := &kctx{comp: c, raw: s, base: label(p.doc, p.ptr), place: p, vocab: p.res.vocab,
		assertFormat: c.assertFormat || p.res.vocab.format}
	gates := compileGates(x)
	applied := c.references(x)
	for _, kw := range [...]string{"minContains", "maxContains"} {
		nonNegativeInteger(x, kw) // refused even where contains is absent
	}
	if x.vocab.applicator {
		applied = append(applied, inPlace(x)...)
		applied = append(applied, objectMembers(x)...)
		applied = append(applied, arrayMembers(x)...)
	}
	checks := append(compileAssertions(x), applied...)
	late := compileUnevaluated(x)
	if defs, has := s["$defs"]; has {
		m, ok := defs.(map[string]any)
		if !ok {
			fail(x.at("$defs"), "$defs must be an object of schemas")
		}
		for _, name := range sortedKeys(m) {
			c.node(m[name], p.res, p.ptr+"/$defs/"+escapeToken(name), p.doc)
		}
	}
	n.fn = combine(gates, checks, late, len(applied) > 0)
	// Only resources with a $dynamicAnchor can be what a $dynamicRef finds in the dynamic scope.
	if n.isRoot && len(p.res.dynamicAnchors) > 0 {
		inner, r := n.fn, p.res
		n.fn = func(v any, st *state, ev *evaluated) bool {
			st.dyn = append(st.dyn, r)
			ok := inner(v, st, ev)
			st.dyn = st.dyn[:len(st.dyn)-1]
			return ok
		}
	}
	n.done = true
}

// compileDynamicAnchors compiles every $dynamicAnchor of every resource known,
// so a $dynamicRef never compiles at validation time.
func (c *compiler) compileDynamicAnchors() {
	for grew := true; grew; {
		grew = false
		for i := 0; i < len(c.reg.order); i++ {
			r := c.reg.order[i]
			for _, name := range r.dynamicAnchors {
				byName := c.dynamic[r]
				if byName == nil {
					byName = map[string]*node{}
					c.dynamic[r] = byName
				}
				if _, done := byName[name]; done {
					continue
				}
				raw := r.anchors[name]
				p, ok := c.reg.placeOf(raw)
				if !ok {
					p = place{r, "", r.uri}
				}
				byName[name] = c.node(raw, p.res, p.ptr, p.doc)
				grew = true
			}
		}
	}
}

// combine makes one schema object's keywords one check. A failing gate (type,
// const, enum) ends the object's evaluation, faults collected or not. With
// track (the object applies subschemas) or unevaluated* keywords, annotations
// are gathered in the object's own set and reach the parent only when the
// object holds: a failing schema evaluates nothing.
func combine(gates, rest, late []check, track bool) check {
	g := len(gates)
	all := append(gates[:g:g], rest...)
	if len(late) == 0 && !track {
		switch len(all) {
		case 0:
			return pass
		case 1:
			return all[0]
		}
		return func(v any, st *state, ev *evaluated) bool {
			for _, c := range all[:g] {
				if !c(v, st, ev) {
					return false
				}
			}
			ok := true
			for _, c := range all[g:] {
				if !c(v, st, ev) {
					ok = false
					if !st.collect {
						return false
					}
				}
			}
			return ok
		}
	}
	return func(v any, st *state, ev *evaluated) bool {
		var mine *evaluated
		if len(late) > 0 || ev != nil {
			mine = &evaluated{}
		}
		for _, c := range all[:g] {
			if !c(v, st, mine) {
				return false
			}
		}
		ok := true
		for _, c := range all[g:] {
			if !c(v, st, mine) {
				ok = false
				if !st.collect {
					return false
				}
			}
		}
		for _, c := range late {
			if !c(v, st, mine) {
				ok = false
				if !st.collect {
					return false
				}
			}
		}
		if ok && ev != nil {
			ev.merge(mine)
		}
		return ok
	}
}
