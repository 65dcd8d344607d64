package host

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ToolCall is one tool/call as the host plans it.
type ToolCall struct {
	Name      string
	Arguments json.RawMessage // a JSON object; nil means {}
	CallID    string          // API 0.2/0.4: the id lifecycle tool events carry
	// IdempotencyKey, when set, makes the call replayable (idempotency.go): a recorded
	// result under the key is returned without calling; sent to the extension (0.2/0.4).
	IdempotencyKey string
	// Planned is the catalog entry the caller decided on (the tool definition the model
	// saw). The call then carries that entry's catalog_revision even when the extension
	// has replaced or removed the tool since, and it is refused with a *StaleCatalogError
	// when the generation that published the entry is gone (a restart starts a new
	// catalog whose revisions start again at 0, so the revision would name a different catalog). Nil plans the call
	// against the extension's current catalog.
	Planned *CatalogEntry
}

// StaleCatalogError refuses a call planned against a catalog entry of a generation that
// no longer runs: the revision it was planned at means nothing to the new process.
type StaleCatalogError struct {
	Extension, Tool          string
	PlannedGeneration        int64
	PlannedRevision, Current int64 // Current is the generation serving now
}

func (e *StaleCatalogError) Error() string {
	return fmt.Sprintf("tool %q was planned against catalog revision %d of %s generation %d, which has ended (generation %d serves now, its catalog revisions started again at 0); plan the call again against the current catalog",
		e.Tool, e.PlannedRevision, e.Extension, e.PlannedGeneration, e.Current)
}

// Call sends tool/call. When the extension negotiated dynamic_tools the call carries the
// catalog_revision it was planned against (seed 002, live tool catalogs): the planned
// entry's, or else the revision of the extension's entry for the tool in the current
// all-extensions catalog. Without dynamic_tools a generation's catalog never changes and
// no revision is sent.
func (e *Extension) Call(ctx context.Context, c ToolCall) (json.RawMessage, error) {
	if k, ok := ctx.Value(idempotencyKeyCtx{}).(string); ok && c.IdempotencyKey == "" {
		c.IdempotencyKey = k
	}
	if c.IdempotencyKey != "" {
		return e.callIdempotent(ctx, c, func() (json.RawMessage, error) { return e.call(ctx, c) })
	}
	return e.call(ctx, c)
}

func (e *Extension) call(ctx context.Context, c ToolCall) (json.RawMessage, error) {
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	params := &protocol.ToolCallParams{Name: c.Name, Arguments: args}
	if callID := c.CallID; callID != "" && e.entry.Manifest != nil && e.entry.Manifest.APIVersion != "0.1" {
		params.CallID = &callID
	}
	if key := c.IdempotencyKey; key != "" && e.entry.Manifest != nil && e.entry.Manifest.APIVersion != "0.1" {
		params.IdempotencyKey = &key
	}
	if c.Planned != nil && c.Planned.Extension != e.name {
		return nil, fmt.Errorf("tool %q was planned on extension %s, not %s", c.Name, c.Planned.Extension, e.name)
	}
	var out json.RawMessage
	var judged *CatalogEntry // the entry the arguments were judged against (and the result will be)
	err := e.requestOn(ctx, protocol.MethodToolCall, params, &out, func(g *generation) error {
		planned := c.Planned
		if planned != nil && planned.Generation != g.number {
			if g.neg.features[string(protocol.FeatureDynamicTools)] {
				return &StaleCatalogError{Extension: e.name, Tool: c.Name, PlannedGeneration: planned.Generation, PlannedRevision: planned.Revision, Current: g.number}
			}
			planned = nil // a static catalog is the same in every generation: judge by the current one
		}
		if planned == nil {
			entry, ok := e.host.Catalog().Lookup(c.Name)
			if ok && entry.Extension == e.name && entry.Generation == g.number {
				planned = &entry
			}
			// else not published by this generation (yet): its current catalog decides,
			// and the extension answers for a tool it does not serve
		}
		judged = planned
		if err := e.checkArguments(planned, args); err != nil {
			return err
		}
		if planned != nil && g.neg.features[string(protocol.FeatureDynamicTools)] {
			rev := planned.Revision
			params.CatalogRevision = &rev
		}
		return nil
	}, func(g *generation) error {
		return g.checkToolResult(ctx, c.Name, judged, out)
	})
	if err != nil {
		return nil, err
	}
	return out, err
}

// CallPlanned calls the tool of entry, an entry of a catalog snapshot the caller kept
// (Host.Catalog), pinned to the revision that snapshot held (see ToolCall.Planned).
func (h *Host) CallPlanned(ctx context.Context, entry CatalogEntry, args json.RawMessage, callID string) (json.RawMessage, error) {
	e := h.Extension(entry.Extension)
	if e == nil {
		return nil, &UnavailableError{Extension: entry.Extension, State: string(StateStopped), Reason: "not admitted by this host"}
	}
	return e.Call(ctx, ToolCall{Name: entry.Tool.Name, Arguments: args, CallID: callID, Planned: &entry})
}
