// Package schemacache keeps the tool schemas the host has compiled, keyed by their bytes,
// so a schema is compiled once per process and not once per check, generation and
// extension: every start of an extension declares its tools again, N copies of one
// extension declare the same schemas N times, and the services' registration check and
// the host's catalog compile the same bytes. Compiling a 2020-12 schema validates it
// against the meta-schema, which costs far more than a start's other work on a schema.
//
// The compile is the host's (its location and a loader that refuses every reference), so
// the host's checks get the schema they always compiled. The services' registration check
// words its refusals with its own compile: it asks here first, and compiles itself only
// when this refuses (both loaders refuse every external reference, so they accept the same
// schemas). Only successes are kept, so every refusal keeps its words and its moment (at
// registration, naming the pointer).
package schemacache

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Bounds: a generation of the cache holds at most maxEntries schemas or maxBytes of
// schema text, and two generations are kept (the current one and the one before, whose
// hits move to the current one), so the cache never holds more than twice the bounds.
// Larger schemas are compiled every time.
const (
	maxEntries     = 1024
	maxBytes       = 4 << 20
	maxSchemaBytes = 64 << 10
)

type entry struct {
	ready  chan struct{} // closed once schema and err are set
	schema *jsonschema.Schema
	err    error
}

var cache struct {
	mu       sync.Mutex
	cur, old map[string]*entry
	curBytes int
}

// Compile returns the tool schema compiled from raw with the host's complete 2020-12
// validator, compiling only when no success for the same bytes is kept. Concurrent
// callers with the same bytes wait for one compile. A compiled schema is read-only, so
// callers share it.
func Compile(raw []byte) (*jsonschema.Schema, error) {
	if len(raw) > maxSchemaBytes {
		return compileFn(raw)
	}
	key := string(raw)
	cache.mu.Lock()
	e, ok := cache.cur[key]
	if !ok {
		if e, ok = cache.old[key]; ok {
			delete(cache.old, key)
			putLocked(key, e)
		}
	}
	if ok {
		cache.mu.Unlock()
		<-e.ready
		if e.err == nil && e.schema != nil {
			return e.schema, nil
		}
		return compileFn(raw) // the compile this waited for failed: refuse with this caller's own
	}
	e = &entry{ready: make(chan struct{})}
	putLocked(key, e)
	cache.mu.Unlock()
	defer func() {
		// Also when the compile panics: a waiter must not wait for good, and no later
		// caller may find the entry.
		if e.err != nil || e.schema == nil {
			forget(key, e)
		}
		close(e.ready)
	}()
	e.schema, e.err = compileFn(raw)
	return e.schema, e.err
}

// forget drops e, a failed compile, from whichever generation holds it now (one that
// started while it compiled moved it to the old one).
func forget(key string, e *entry) {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	if cache.cur[key] == e {
		delete(cache.cur, key)
		cache.curBytes -= len(key)
	}
	if cache.old[key] == e {
		delete(cache.old, key)
	}
}

// compileFn compiles a schema (a variable so a test can make a compile fail or panic).
var compileFn = compileNow

// putLocked adds e to the current generation, starting a new one when it is full.
func putLocked(key string, e *entry) {
	if cache.cur == nil || len(cache.cur) >= maxEntries || cache.curBytes+len(key) > maxBytes {
		cache.old, cache.cur, cache.curBytes = cache.cur, map[string]*entry{}, 0
	}
	cache.cur[key] = e
	cache.curBytes += len(key)
}

// Len is the number of schemas kept (tests).
func Len() int {
	cache.mu.Lock()
	defer cache.mu.Unlock()
	return len(cache.cur) + len(cache.old)
}

// compileNow compiles raw. References are never loaded (no files, no network): a tool
// schema is self-contained.
func compileNow(raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	const loc = "urn:octet:host-tool-schema"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// noLoader refuses every external reference, naming it.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("reference %s is not loaded: a tool schema must be self-contained", url)
}
