// Package jsonschema is the Go SDK's JSON Schema draft 2020-12 validator for
// authors' tool and command schemas (core, applicator, unevaluated and
// validation vocabularies; format is an annotation unless asked for), with the
// fault contract of docs/conformance.md#validation-faults. It is the Go twin
// of sdk-typescript/src/jsonschema and sdk-python's _jsonschema: the same
// keyword coverage, compile-time refusals, faults and reasons.
//
// Nothing is done at package init (no meta-schema is compiled at start):
// Compile checks each keyword's value as it compiles it, refusing a schema it
// cannot compile with the JSON pointer of the bad keyword.
package jsonschema

import (
	"fmt"
	"sync"
)

// DefaultBase is the base URI of a schema without $id: opaque, so a relative
// reference to another document fails loudly.
const DefaultBase = "urn:octet:schema"

// Options tune a compilation.
type Options struct {
	// Remotes are documents a $ref may name besides the schema itself, by
	// absolute URI (as parsed JSON); nothing is ever fetched.
	Remotes map[string]any
	// AssertFormat checks format (draft 2020-12 makes it an annotation).
	AssertFormat bool
	// BaseURI is the schema's retrieval URI when it has no $id (DefaultBase).
	BaseURI string
}

// Schema is a compiled schema; it is safe for concurrent use.
type Schema struct {
	fn     check
	states sync.Pool
}

// maxDepth bounds how deep references may nest on one instance location: a
// schema whose references loop without descending into the instance would
// otherwise overflow the goroutine's stack, which Go cannot recover from.
const maxDepth = 1000

// Compile compiles a schema document (a map[string]any or a bool, as
// encoding/json decodes it with UseNumber).
func Compile(doc any, opts Options) (s *Schema, err error) {
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SchemaError)
			if !ok {
				panic(r)
			}
			s, err = nil, se
		}
	}()
	load := func(uri string) (any, bool) {
		if d, ok := opts.Remotes[uri]; ok {
			return d, true
		}
		return builtinDocument(uri)
	}
	reg := &registry{resources: map[string]*resource{}, places: map[unsafeKey]place{}, load: load}
	base := opts.BaseURI
	if base == "" {
		base = DefaultBase
	}
	r := reg.addDocument(doc, base, "")
	c := &compiler{reg: reg, nodes: map[unsafeKey]*node{}, dynamic: map[*resource]map[string]*node{},
		patterns: map[string]*regexpT{}, assertFormat: opts.AssertFormat}
	root := c.node(doc, r, "", "")
	c.compileDynamicAnchors()
	s = &Schema{fn: root.fn}
	s.states.New = func() any { return &state{} }
	return s, nil
}

// CompileJSON compiles a schema from its JSON text.
func CompileJSON(raw []byte, opts Options) (*Schema, error) {
	var doc any
	if err := decode(raw, &doc); err != nil {
		return nil, &SchemaError{Reason: fmt.Sprintf("not valid JSON: %v", err)}
	}
	return Compile(doc, opts)
}

// Valid reports whether v is valid; it allocates nothing on the way.
func (s *Schema) Valid(v any) bool {
	st := s.states.Get().(*state)
	st.dyn, st.depth, st.tooDeep = st.dyn[:0], 0, false
	ok := s.fn(v, st, nil)
	s.states.Put(st)
	return ok
}

// Faults is every fault of v (none when v is valid).
func (s *Schema) Faults(v any) []Fault {
	if s.Valid(v) {
		return nil
	}
	st := &state{collect: true}
	s.fn(v, st, nil)
	if st.tooDeep {
		st.out = append(st.out, Fault{Keyword: "$ref", Reason: fmt.Sprintf("references nest deeper than %d", maxDepth)})
	}
	return st.out
}

// Check is the one fault reported for v (the least by Fault.Less), or false
// when v is valid.
func (s *Schema) Check(v any) (Fault, bool) { return Least(s.Faults(v)) }
