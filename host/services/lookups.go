package services

import (
	"context"
)

// SeedCatalog installs the initialize catalog as revision 0 of c's
// generation (call it after a successful handshake when dynamic_tools was
// negotiated, or always: a static catalog is just one that never changes).
func (r *Router) SeedCatalog(c *Caller, tools []ToolDefinition) error { return nil }

// CatalogTool returns the definition the given catalog revision of c's
// generation pinned for name; ok is false for an unknown or retired
// revision (the core answers tool/call with -32602 naming the revision) or
// a name that revision did not hold.
func (r *Router) CatalogTool(c *Caller, revision int64, name string) (ToolDefinition, bool) {
	return ToolDefinition{}, false
}

// Catalog returns the current revision and tools of c's generation.
func (r *Router) Catalog(c *Caller) (int64, []ToolDefinition) { return 0, nil }

// ResolvedArtifact is an artifact the host may use for a content part.
type ResolvedArtifact struct {
	ID       string
	MIMEType string
	Size     int64
	SHA256   string
	Path     string // the blob on disk; read-only
}

// ResolveArtifact resolves an artifact id for content published by c under
// owner: only the same owner (session, instance, generation) and the same
// extension see it; anything else is unavailable (ok false), so a leaked
// id is not an existence oracle.
func (r *Router) ResolveArtifact(ctx context.Context, c *Caller, owner Owner, id string) (ResolvedArtifact, bool) {
	return ResolvedArtifact{}, false
}
