package jsonschema

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"
)

// Schema resources and reference resolution: every $id starts a resource with
// its own base URI, $anchor and $dynamicAnchor name subschemas in it, and $ref
// URIs resolve against the base in effect to a resource plus an empty
// fragment, a JSON pointer or an anchor. Documents the schema does not embed
// come only from the caller's Remotes or the built-in 2020-12 meta-schemas
// (never the network): an unknown one is a compile error.

// vocab is which vocabularies a resource's $schema enables (core always is).
type vocab struct{ applicator, unevaluated, validation, format bool }

var allVocabs = vocab{applicator: true, unevaluated: true, validation: true}

type resource struct {
	uri            string // absolute, without fragment
	root           any
	anchors        map[string]any
	dynamicAnchors []string
	vocab          vocab
}

func (r *resource) hasDynamicAnchor(name string) bool {
	for _, a := range r.dynamicAnchors {
		if a == name {
			return true
		}
	}
	return false
}

// place is where a schema object sits: its resource, its pointer from its
// document's root, and the document ("" for the schema being compiled).
type place struct {
	res *resource
	ptr string
	doc string
}

func label(doc, ptr string) string {
	if doc == "" {
		return ptr
	}
	return doc + "#" + ptr
}

const dialect202012 = "https://json-schema.org/draft/2020-12/schema"
const vocabPrefix = "https://json-schema.org/draft/2020-12/vocab/"

// Keywords whose value is one subschema, an array of them, or an object of them.
var (
	subschemaKeywords = [...]string{"additionalProperties", "unevaluatedProperties", "items",
		"unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema"}
	subschemaArrays = [...]string{"allOf", "anyOf", "oneOf", "prefixItems"}
	subschemaMaps   = [...]string{"properties", "patternProperties", "dependentSchemas", "$defs"}
)

type registry struct {
	resources map[string]*resource
	order     []*resource // in discovery order: compiling dynamic anchors is deterministic
	places    map[unsafeKey]place
	load      func(uri string) (any, bool)
}

// identity is a schema object's key: its map's address (maps are not comparable).
func identity(m map[string]any) unsafeKey { return unsafeKey(reflect.ValueOf(m).UnsafePointer()) }

type unsafeKey unsafe.Pointer

func isSchema(raw any) bool {
	switch raw.(type) {
	case bool, map[string]any:
		return true
	}
	return false
}

// addDocument indexes a document retrieved as uri; doc labels its errors.
func (g *registry) addDocument(raw any, uri, doc string) *resource {
	if !isSchema(raw) {
		fail(label(doc, ""), "a schema must be an object or a boolean")
	}
	r := g.newResource(uri, raw, allVocabs, label(doc, ""))
	g.index(raw, r, "", doc, true)
	return r
}

func (g *registry) newResource(uri string, root any, inherited vocab, at string) *resource {
	r := &resource{uri: uri, root: root, anchors: map[string]any{}, vocab: inherited}
	if m, ok := root.(map[string]any); ok {
		if d, has := m["$schema"]; has {
			s, ok := d.(string)
			if !ok {
				fail(at+"/$schema", "$schema must be a string")
			}
			r.vocab = g.vocabOf(s, at+"/$schema")
		}
	}
	g.register(uri, r)
	return r
}

func (g *registry) register(uri string, r *resource) {
	if _, known := g.resources[uri]; !known {
		g.resources[uri] = r
		g.order = append(g.order, r)
	}
}

// vocabOf reads a meta-schema other than 2020-12's own for its $vocabulary (an
// unknown required vocabulary is refused); a $schema that cannot be loaded
// validates with 2020-12 rules.
func (g *registry) vocabOf(dialect, at string) vocab {
	uri, _, _ := strings.Cut(dialect, "#")
	if uri == dialect202012 {
		return allVocabs
	}
	meta, _ := g.load(uri)
	m, ok := meta.(map[string]any)
	if !ok {
		return allVocabs
	}
	vocabs, ok := m["$vocabulary"].(map[string]any)
	if !ok {
		return allVocabs
	}
	var v vocab
	for _, name := range sortedKeys(vocabs) {
		short, known := strings.CutPrefix(name, vocabPrefix)
		if !known {
			if vocabs[name] == true {
				fail(at, "meta-schema "+uri+" requires the unknown vocabulary "+name)
			}
			continue
		}
		switch short {
		case "applicator":
			v.applicator = true
		case "unevaluated":
			v.unevaluated = true
		case "validation":
			v.validation = true
		case "format-assertion":
			v.format = true
		}
	}
	return v
}

func validAnchor(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '-' || c == '.')) {
			return false
		}
	}
	return name != ""
}

func (g *registry) index(raw any, r *resource, ptr, doc string, isRoot bool) {
	m, ok := raw.(map[string]any)
	if !ok {
		return
	}
	if _, seen := g.places[identity(m)]; seen {
		return
	}
	if id, has := m["$id"]; has {
		s, ok := id.(string)
		if !ok {
			fail(label(doc, ptr+"/$id"), "$id must be a string")
		}
		uri, _, _ := strings.Cut(resolveURI(r.uri, s), "#")
		if !isRoot {
			r = g.newResource(uri, m, r.vocab, label(doc, ptr))
		} else if uri != r.uri {
			// A document's own $id: its base, and a second name for it.
			r.uri = uri
			g.register(uri, r)
		}
	}
	g.places[identity(m)] = place{r, ptr, doc}
	for _, kw := range [...]string{"$anchor", "$dynamicAnchor"} {
		v, has := m[kw]
		if !has {
			continue
		}
		name, ok := v.(string)
		if !ok || !validAnchor(name) {
			fail(label(doc, ptr+"/"+kw), kw+` must be a plain name (letters, digits, "-", "_", ".")`)
		}
		if _, dup := r.anchors[name]; !dup {
			r.anchors[name] = m
		}
		if kw == "$dynamicAnchor" && !r.hasDynamicAnchor(name) {
			r.dynamicAnchors = append(r.dynamicAnchors, name)
		}
	}
	for _, kw := range subschemaKeywords {
		if sub, has := m[kw]; has {
			g.index(sub, r, ptr+"/"+kw, doc, false)
		}
	}
	for _, kw := range subschemaArrays {
		if list, ok := m[kw].([]any); ok {
			for i, sub := range list {
				g.index(sub, r, ptr+"/"+kw+"/"+strconv.Itoa(i), doc, false)
			}
		}
	}
	for _, kw := range subschemaMaps {
		if subs, ok := m[kw].(map[string]any); ok {
			for _, name := range sortedKeys(subs) {
				g.index(subs[name], r, ptr+"/"+kw+"/"+escapeToken(name), doc, false)
			}
		}
	}
}

// target is what a reference resolves to.
type target struct {
	raw any
	place
}

// resolve finds the subschema an absolute reference URI names; at is the
// referring keyword's location, for the error.
func (g *registry) resolve(uri, at string) target {
	docURI, name, ok := splitFragment(uri)
	if !ok {
		fail(at, "cannot resolve $ref "+QuoteString(uri)+": bad percent-encoding in the fragment")
	}
	r, known := g.resources[docURI]
	if !known {
		loaded, found := g.load(docURI)
		if !found {
			fail(at, "cannot resolve $ref "+QuoteString(uri)+": no schema with that URI is known (remote schemas are never fetched)")
		}
		g.addDocument(loaded, docURI, docURI)
		r = g.resources[docURI]
	}
	rootPlace, hasRoot := g.placeOf(r.root)
	doc := docURI
	if hasRoot {
		doc = rootPlace.doc
	}
	if name == "" {
		return target{r.root, place{r, rootPlace.ptr, doc}}
	}
	if !strings.HasPrefix(name, "/") {
		raw, has := r.anchors[name]
		if !has {
			fail(at, "cannot resolve $ref "+QuoteString(uri)+": no $anchor "+QuoteString(name)+" in "+docURI)
		}
		p, _ := g.placeOf(raw)
		return target{raw, p}
	}
	// A pointer walks the resource's JSON, also into places no keyword makes a schema.
	node, ptr, current := r.root, rootPlace.ptr, r
	for _, tok := range strings.Split(name[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch n := node.(type) {
		case map[string]any:
			node, ok = n[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			ok = err == nil && i >= 0 && i < len(n) && (tok == "0" || tok[0] != '0')
			if ok {
				node = n[i]
			}
		default:
			ok = false
		}
		if !ok {
			fail(at, "cannot resolve $ref "+QuoteString(uri)+": nothing at that pointer")
		}
		ptr += "/" + escapeToken(tok)
		if p, has := g.placeOf(node); has {
			current = p.res
		}
	}
	if !isSchema(node) {
		fail(at, "cannot resolve $ref "+QuoteString(uri)+": the value there is not a schema")
	}
	if _, has := g.placeOf(node); !has {
		g.index(node, current, ptr, doc, false)
	}
	p, has := g.placeOf(node)
	if !has { // a boolean schema
		p = place{current, ptr, doc}
	}
	return target{node, p}
}

func (g *registry) placeOf(raw any) (place, bool) {
	m, ok := raw.(map[string]any)
	if !ok {
		return place{}, false
	}
	p, ok := g.places[identity(m)]
	return p, ok
}
