package services

import (
	"context"
	"fmt"
	"strings"
)

// SeedCatalog installs the initialize catalog as revision 0 of c's
// generation, replacing any earlier state of that generation. Call it after
// a successful handshake; a static catalog is one that never changes.
func (r *Router) SeedCatalog(c *Caller, tools []ToolDefinition) error {
	if len(tools) > maxCatalogTools {
		return fmt.Errorf("initialize catalog has %d tools; the limit is %d", len(tools), maxCatalogTools)
	}
	m := map[string]ToolDefinition{}
	for i, t := range tools {
		if err := compileToolSchemas(fmt.Sprintf("tools[%d]", i), t); err != nil {
			return err
		}
		if _, dup := m[t.Name]; dup {
			return fmt.Errorf("initialize catalog lists tool %q twice", t.Name)
		}
		m[t.Name] = t
	}
	cs := r.catalog(c)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	cs.revision, cs.current = 0, m
	cs.history = map[int64]map[string]ToolDefinition{0: m}
	cs.order = []int64{0}
	return nil
}

// CatalogTool returns the definition the given catalog revision of c's
// generation pinned for name. ok is false for an unknown or retired revision
// (the core answers tool/call with -32602 naming the revision) or for a name
// that revision did not hold.
func (r *Router) CatalogTool(c *Caller, revision int64, name string) (ToolDefinition, bool) {
	cs := r.catalog(c)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	m, ok := cs.history[revision]
	if !ok {
		return ToolDefinition{}, false
	}
	t, ok := m[name]
	return t, ok
}

// HasCatalogRevision reports whether revision is still retained.
func (r *Router) HasCatalogRevision(c *Caller, revision int64) bool {
	cs := r.catalog(c)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	_, ok := cs.history[revision]
	return ok
}

// Catalog returns the current revision and tools (sorted by name) of c's
// generation.
func (r *Router) Catalog(c *Caller) (int64, []ToolDefinition) {
	cs := r.catalog(c)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.revision, sortedTools(cs.current)
}

// ResolvedArtifact is an artifact the host may use for a content part.
type ResolvedArtifact struct {
	ID       string
	MIMEType string
	Size     int64
	SHA256   string
	Path     string // the blob on disk; treat as read-only
}

// ResolveArtifact resolves an artifact id for a result c produced under
// owner: only the same extension principal, owner session and this exact
// instance and generation see it. Anything else, including ids that do not
// exist, is simply unavailable (ok false), so a leaked id is not an
// existence oracle.
func (r *Router) ResolveArtifact(ctx context.Context, c *Caller, owner Owner, id string) (ResolvedArtifact, bool) {
	if !strings.HasPrefix(id, "artifact:") {
		return ResolvedArtifact{}, false
	}
	a, ok, err := r.store.GetArtifact(ctx, id)
	if err != nil || !ok {
		return ResolvedArtifact{}, false
	}
	if a.Principal != c.Principal || a.InstanceID != c.InstanceID || a.Generation != c.Generation ||
		a.SessionID != owner.SessionID || (owner.ExtensionInstanceID != "" && (owner.ExtensionInstanceID != c.InstanceID || owner.ProcessGeneration != c.Generation)) {
		return ResolvedArtifact{}, false
	}
	return ResolvedArtifact{ID: a.ID, MIMEType: a.MIMEType, Size: a.Size, SHA256: a.SHA256, Path: r.store.BlobPath(a.SHA256)}, true
}
