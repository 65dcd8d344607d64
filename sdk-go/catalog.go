package octet

import (
	"context"
	"fmt"
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// catalogRev is one committed (or staged) tool catalog.
type catalogRev struct {
	rev   int64
	tools map[string]*ToolDef
}

// catalog holds the dynamic tool catalogs (wire.md §10): revision 0 is initialize's;
// each mutation stages the next catalog locally (addressable by a tool/call that
// races the acknowledgement), commits what the host accepted when it answers
// exactly the next revision, and keeps the last RETAINED_CATALOGS committed ones so
// calls planned against them still resolve.
type catalog struct {
	e   *Extension
	txn sync.Mutex // one mutation at a time

	mu        sync.Mutex
	committed []*catalogRev // ascending, at most protocol.RetainedCatalogs
	staged    *catalogRev
}

func newCatalog(e *Extension) *catalog { return &catalog{e: e} }

// CatalogUpdate is the host's answer to a catalog mutation (Tools: the whole accepted
// catalog): the wire type, already checked by its generated validator when it arrives.
type CatalogUpdate = protocol.ToolsCatalogResult

// reset installs revision 0.
func (c *catalog) reset(tools []*ToolDef) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := make(map[string]*ToolDef, len(tools))
	for _, t := range tools {
		m[t.spec.Name] = t
	}
	c.committed = []*catalogRev{{rev: 0, tools: m}}
	c.staged = nil
}

// Revision returns the last committed catalog revision (0 after initialize).
func (s *CatalogService) Revision() int64 {
	c := s.e.catalog
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.committed); n > 0 {
		return c.committed[n-1].rev
	}
	return 0
}

// lookup finds the tool a call names: in the catalog it was planned against when
// it carries catalog_revision, else in the latest committed catalog.
func (c *catalog) lookup(name string, rev *int64) (*ToolDef, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var cat *catalogRev
	if rev == nil {
		cat = c.committed[len(c.committed)-1]
	} else {
		for _, r := range c.committed {
			if r.rev == *rev {
				cat = r
			}
		}
		if cat == nil && c.staged != nil && c.staged.rev == *rev {
			cat = c.staged
		}
		if cat == nil {
			return nil, invalidParams("/catalog_revision", "catalog revision %d is unknown or retired (retained: %s)", *rev, c.retainedLocked())
		}
	}
	t := cat.tools[name]
	if t == nil {
		return nil, unknownTool(name)
	}
	return t, nil
}

func (c *catalog) retainedLocked() string {
	s := ""
	for i, r := range c.committed {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(r.rev)
	}
	return s
}

// Register adds or replaces tools (made by DefineTool/DefineRawTool) in one
// tools/register request. Needs the negotiated dynamic_tools feature. Rejection
// leaves the local catalog unchanged.
func (s *CatalogService) Register(ctx context.Context, tools []*ToolDef) (CatalogUpdate, error) {
	defs := definitions(s.e, tools)
	return s.e.catalog.mutate(ctx, func(ctx context.Context) (CatalogUpdate, error) {
		return Send(ctx, s.e, protocol.RequestToolsRegister, protocol.ToolsRegisterParams{Tools: defs})
	}, func(next map[string]*ToolDef) error {
		for _, t := range tools {
			next[t.spec.Name] = t
		}
		if len(next) > protocol.MaxCatalogTools {
			return localError("Catalog.Register: the catalog would hold %d tools, over the %d limit", len(next), protocol.MaxCatalogTools)
		}
		return nil
	})
}

// Replace makes tools the whole dynamic catalog in one tools/replace request: one
// revision, or nothing changes (no tools empties it). Needs the negotiated dynamic_tools
// feature. Rejection leaves the local catalog unchanged.
func (s *CatalogService) Replace(ctx context.Context, tools []*ToolDef) (CatalogUpdate, error) {
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if seen[t.spec.Name] {
			return CatalogUpdate{}, localError("Catalog.Replace: %q appears twice", t.spec.Name)
		}
		seen[t.spec.Name] = true
	}
	defs := definitions(s.e, tools)
	return s.e.catalog.mutate(ctx, func(ctx context.Context) (CatalogUpdate, error) {
		return Send(ctx, s.e, protocol.RequestToolsReplace, protocol.ToolsReplaceParams{Tools: defs})
	}, func(next map[string]*ToolDef) error {
		clear(next)
		for _, t := range tools {
			next[t.spec.Name] = t
		}
		return nil
	})
}

// Unregister removes tools by name in one tools/unregister request; absent
// names are harmless.
func (s *CatalogService) Unregister(ctx context.Context, names []string) (CatalogUpdate, error) {
	wire := make([]protocol.ToolName, len(names))
	for i, n := range names {
		wire[i] = protocol.ToolName(n)
	}
	return s.e.catalog.mutate(ctx, func(ctx context.Context) (CatalogUpdate, error) {
		return Send(ctx, s.e, protocol.RequestToolsUnregister, protocol.ToolsUnregisterParams{Names: wire})
	}, func(next map[string]*ToolDef) error {
		for _, n := range names {
			delete(next, n)
		}
		return nil
	})
}

// mutate stages the next catalog, asks the host, and commits what it accepted.
// definitions are the wire definitions of tools for the negotiated API version.
func definitions(e *Extension, tools []*ToolDef) []protocol.ToolDefinition {
	defs := make([]protocol.ToolDefinition, len(tools))
	for i, t := range tools {
		defs[i] = t.definition(e.APIVersion())
	}
	return defs
}

func (c *catalog) mutate(ctx context.Context, send func(context.Context) (CatalogUpdate, error), apply func(map[string]*ToolDef) error) (CatalogUpdate, error) {
	c.txn.Lock()
	defer c.txn.Unlock()
	c.mu.Lock()
	cur := c.committed[len(c.committed)-1]
	next := make(map[string]*ToolDef, len(cur.tools))
	for k, v := range cur.tools {
		next[k] = v
	}
	if err := apply(next); err != nil {
		c.mu.Unlock()
		return CatalogUpdate{}, err
	}
	c.staged = &catalogRev{rev: cur.rev + 1, tools: next}
	c.mu.Unlock()

	// The request is sent and awaited whatever the handler's cancellation: the host may
	// commit the revision, and a mutation abandoned mid-flight would leave this side one
	// revision behind, refusing every later mutation (found by certify's
	// tools.cancel_mid_flight against examples/go/dynamic-tools). Python and TypeScript
	// await the answer the same way.
	res, err := send(context.WithoutCancel(ctx))
	c.mu.Lock()
	defer c.mu.Unlock()
	c.staged = nil
	if err != nil {
		return CatalogUpdate{}, err
	}
	if res.Revision != cur.rev+1 {
		return CatalogUpdate{}, fmt.Errorf("octet: protocol error: the catalog change was answered with revision %d, want exactly %d; the catalog is unchanged", res.Revision, cur.rev+1)
	}
	accepted := make(map[string]*ToolDef, len(res.Tools))
	for _, n := range res.Tools {
		if t := next[n]; t != nil {
			accepted[n] = t
		} else if t := cur.tools[n]; t != nil {
			accepted[n] = t
		}
	}
	c.committed = append(c.committed, &catalogRev{rev: res.Revision, tools: accepted})
	if len(c.committed) > protocol.RetainedCatalogs {
		c.committed = c.committed[len(c.committed)-protocol.RetainedCatalogs:]
	}
	return res, nil
}
