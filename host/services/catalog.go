package services

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/host/internal/schemacache"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// catalogState is one generation's live tool catalog: the current revision
// and the last retainedCatalogs committed revisions, so calls pinned to a
// recent revision still find the definition the model saw.
type catalogState struct {
	mu       sync.Mutex // serialises mutations, including the OnCatalog hook
	revision int64
	current  map[string]ToolDefinition
	history  map[int64]map[string]ToolDefinition
	order    []int64 // retained revisions, oldest first
}

func (r *Router) catalog(c *Caller) *catalogState {
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.genLocked(c)
	if g.catalog == nil {
		g.catalog = &catalogState{current: map[string]ToolDefinition{}, history: map[int64]map[string]ToolDefinition{0: {}}, order: []int64{0}}
	}
	return g.catalog
}

// toolsRegister adds or replaces tools: the whole request is validated and
// offered to OnCatalog before anything changes, so a refusal leaves the
// previous catalog intact.
func (r *Router) toolsRegister(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	// The generated type keeps parameters and output_schema as the bytes sent (open
	// objects are raw JSON in Go), after its validator judged the whole request.
	p, err := decodeWorded[protocol.ToolsRegisterParams](raw, catalogWording)
	if err != nil {
		return nil, err
	}
	defs := p.Tools
	seen := map[string]bool{}
	for i := range defs {
		path := fmt.Sprintf("tools[%d]", i)
		if err := compileToolSchemas(path, defs[i]); err != nil {
			return nil, err
		}
		if seen[defs[i].Name] {
			return nil, invalidParams(path+".name", "%q appears twice in this request", defs[i].Name)
		}
		seen[defs[i].Name] = true
	}
	return r.mutateCatalog(c, func(next map[string]ToolDefinition) {
		for _, d := range defs {
			next[d.Name] = d
		}
	})
}

// toolsReplace swaps the caller's whole dynamic catalog for the request's tools in one
// revision: validated and offered to OnCatalog as a whole, so a refusal changes nothing
// and a changed list never costs an unregister plus a register (two revisions, with a
// partial catalog between them).
func (r *Router) toolsReplace(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeWorded[protocol.ToolsReplaceParams](raw, wording{}) // 0..256: not a batch
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for i, d := range p.Tools {
		path := fmt.Sprintf("tools[%d]", i)
		if err := compileToolSchemas(path, d); err != nil {
			return nil, err
		}
		if seen[d.Name] {
			return nil, invalidParams(path+".name", "%q appears twice in this request", d.Name)
		}
		seen[d.Name] = true
	}
	return r.mutateCatalog(c, func(next map[string]ToolDefinition) {
		clear(next)
		for _, d := range p.Tools {
			next[d.Name] = d
		}
	})
}

// toolsUnregister removes tools; absent names are harmless.
func (r *Router) toolsUnregister(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeWorded[protocol.ToolsUnregisterParams](raw, catalogWording)
	if err != nil {
		return nil, err
	}
	return r.mutateCatalog(c, func(next map[string]ToolDefinition) {
		for _, n := range p.Names {
			delete(next, n)
		}
	})
}

func (r *Router) mutateCatalog(c *Caller, apply func(map[string]ToolDefinition)) (any, error) {
	cs := r.catalog(c)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	next := make(map[string]ToolDefinition, len(cs.current))
	for k, v := range cs.current {
		next[k] = v
	}
	apply(next)
	if len(next) > maxCatalogTools {
		return nil, invalidParams("tools", "the catalog would hold %d tools; the limit is %d", len(next), maxCatalogTools)
	}
	rev := cs.revision + 1
	tools := sortedTools(next)
	if r.cfg.OnCatalog != nil {
		if err := r.cfg.OnCatalog(c, rev, tools); err != nil {
			return nil, invalidParams("tools", "catalog revision %d refused: %v", rev, err)
		}
	}
	cs.commit(rev, next)
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return protocol.ToolsCatalogResult{Revision: rev, Tools: names}, nil
}

func (cs *catalogState) commit(rev int64, tools map[string]ToolDefinition) {
	cs.revision, cs.current = rev, tools
	cs.history[rev] = tools
	cs.order = append(cs.order, rev)
	for len(cs.order) > retainedCatalogs {
		delete(cs.history, cs.order[0])
		cs.order = cs.order[1:]
	}
}

func sortedTools(m map[string]ToolDefinition) []ToolDefinition {
	out := make([]ToolDefinition, 0, len(m))
	for _, t := range m {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// compileToolSchemas is the rule the schema cannot state: parameters and output_schema
// compile as JSON Schemas. References are not loaded (no files, no network): a tool schema
// must be self-contained.
func compileToolSchemas(path string, d ToolDefinition) error {
	if err := compileSchema(d.Parameters); err != nil {
		return invalidParams(path+".parameters", "%v", err)
	}
	if len(d.OutputSchema) > 0 {
		if err := compileSchema(d.OutputSchema); err != nil {
			return invalidParams(path+".output_schema", "%v", err)
		}
	}
	return nil
}

func compileSchema(raw json.RawMessage) error {
	if !isObject(raw) {
		return fmt.Errorf("must be a JSON Schema object")
	}
	// The host's catalog compiles the same bytes when the tools are published: one
	// compile serves both (schemacache). A refusal is worded by this package's compile.
	if _, err := schemacache.Compile(raw); err == nil {
		return nil
	}
	_, err := compileSchemaNow(raw)
	return err
}

func compileSchemaNow(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("is not valid JSON: %v", err)
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(jsonschema.SchemeURLLoader{})
	const loc = "urn:octet:tool-schema"
	if err := comp.AddResource(loc, doc); err != nil {
		return nil, fmt.Errorf("is not a valid JSON Schema: %v", err)
	}
	s, err := comp.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("is not a valid JSON Schema: %v", err)
	}
	return s, nil
}
