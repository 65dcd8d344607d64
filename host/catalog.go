package host

import (
	"fmt"
	"sort"
)

// CatalogEntry is one tool of the all-extensions catalog and the extension serving it.
type CatalogEntry struct {
	Extension string         `json:"extension"`
	Tool      ToolDefinition `json:"tool"`
	// Generation and Revision say which catalog of the extension published the tool: the
	// process generation and its catalog revision (0 is the initialize catalog; each
	// tools/register or tools/unregister commits the next). A call planned against this
	// entry carries Revision (ToolCall.Planned).
	Generation int64 `json:"generation"`
	Revision   int64 `json:"catalog_revision"`

	schemas *toolSchemas // compiled once when the entry is published; nil in a hand-made entry
}

// Catalog is an immutable snapshot of every ready extension's tools. It is replaced as a
// whole: a reader sees the old catalog or the new one, never a partial one.
type Catalog struct {
	Revision int64          `json:"revision"`
	Tools    []CatalogEntry `json:"tools"` // sorted by tool name
	byName   map[string]int
}

// Lookup finds the entry serving tool name.
func (c *Catalog) Lookup(name string) (CatalogEntry, bool) {
	if c == nil {
		return CatalogEntry{}, false
	}
	i, ok := c.byName[name]
	if !ok {
		return CatalogEntry{}, false
	}
	return c.Tools[i], true
}

// DuplicateToolError refuses a catalog in which two extensions contribute the same tool.
type DuplicateToolError struct {
	Tool, Existing, Incoming string
}

func (e *DuplicateToolError) Error() string {
	return fmt.Sprintf("tool %q of extension %s is already provided by extension %s; rename one of them", e.Tool, e.Incoming, e.Existing)
}

// replaceTools swaps extension ext's tools for tools, published by generation gen at its
// catalog revision rev, in one atomic step, or changes nothing when the result would hold a
// duplicate name (fail closed, never a partial catalog).
func (h *Host) replaceTools(ext string, gen, rev int64, tools []ToolDefinition) error {
	h.catMu.Lock()
	defer h.catMu.Unlock()
	old := h.catalog.Load()
	next := &Catalog{Revision: old.Revision + 1, byName: map[string]int{}}
	owner := map[string]string{}
	for _, e := range old.Tools {
		if e.Extension != ext {
			next.Tools = append(next.Tools, e)
			owner[e.Tool.Name] = e.Extension
		}
	}
	for _, t := range tools {
		if prev, ok := owner[t.Name]; ok {
			return &DuplicateToolError{Tool: t.Name, Existing: prev, Incoming: ext}
		}
		owner[t.Name] = ext
		// Compiled here, once per published entry, so every call judges without compiling;
		// a schema the host cannot compile refuses the catalog (fail closed).
		schemas, err := compileToolSchemas(t)
		if err != nil {
			return fmt.Errorf("extension %s: %v", ext, err)
		}
		next.Tools = append(next.Tools, CatalogEntry{Extension: ext, Tool: t, Generation: gen, Revision: rev, schemas: schemas})
	}
	sort.Slice(next.Tools, func(i, j int) bool { return next.Tools[i].Tool.Name < next.Tools[j].Tool.Name })
	for i, e := range next.Tools {
		next.byName[e.Tool.Name] = i
	}
	h.catalog.Store(next)
	return nil
}

// removeTools drops ext's tool group (crash, stop); it cannot fail.
func (h *Host) removeTools(ext string) { _ = h.replaceTools(ext, 0, 0, nil) }

// Catalog returns the current all-extensions catalog.
func (h *Host) Catalog() *Catalog { return h.catalog.Load() }

// OnCatalog is the hook for dynamic catalogs (services.RouterConfig.OnCatalog): it swaps the
// caller's tools for its candidate catalog, or refuses the mutation when the caller is not
// the current generation or a name collides with another extension's tool.
func (h *Host) OnCatalog(c *Caller, revision int64, tools []ToolDefinition) error {
	e := h.Extension(c.Extension)
	if e == nil {
		return fmt.Errorf("extension %s is not running", c.Extension)
	}
	e.mu.Lock()
	current := e.cur != nil && e.cur.number == c.Generation
	e.mu.Unlock()
	if !current {
		return fmt.Errorf("generation %d of %s is no longer current", c.Generation, c.Extension)
	}
	return h.replaceTools(c.Extension, c.Generation, revision, tools)
}
