package octet

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// UpdatePresentation sends a presentation snapshot, the wire's presentation/update (API
// 0.2/0.4, `[contributes] presentation = true`). Inside a handler it belongs to that request; elsewhere,
// pass owner (the host-issued triple) or nil for process-scoped state. The SDK
// checks the limits (256 KiB, 128 activities, 256 nodes, 64 actions, 64 KiB detail)
// and that revisions increase; the host checks the rest.
func (e *Extension) UpdatePresentation(ctx context.Context, snap protocol.Snapshot, owner *protocol.ResourceOwner) error {
	s, err := e.ready("UpdatePresentation")
	if err != nil {
		return err
	}
	if s.apiVersion == "0.1" {
		return localError("presentation needs API 0.2 or later")
	}
	if !contributes(s, func(c *protocol.ManifestContributions) *bool { return c.Presentation }) {
		return localError("UpdatePresentation needs [contributes] presentation = true in the manifest")
	}
	switch {
	case snap.Revision < 0:
		return localError("snapshot revision %d is negative", snap.Revision)
	case len(snap.Activities) > protocol.PresentationMaxActivities:
		return localError("snapshot has %d activities, over the %d limit", len(snap.Activities), protocol.PresentationMaxActivities)
	case len(snap.Actions) > protocol.PresentationMaxActions:
		return localError("snapshot has %d actions, over the %d limit", len(snap.Actions), protocol.PresentationMaxActions)
	case snap.Collection != nil && len(snap.Collection.Nodes) > protocol.PresentationMaxNodes:
		return localError("snapshot collection has %d nodes, over the %d limit", len(snap.Collection.Nodes), protocol.PresentationMaxNodes)
	case snap.Collection != nil && snap.Collection.Detail != nil && len(snap.Collection.Detail.Text) > protocol.PresentationMaxDetailBytes:
		return localError("snapshot detail of %d bytes exceeds %d", len(snap.Collection.Detail.Text), protocol.PresentationMaxDetailBytes)
	}
	raw, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	if len(raw) > protocol.PresentationMaxBytes {
		return localError("snapshot of %d bytes exceeds the %d-byte limit", len(raw), protocol.PresentationMaxBytes)
	}
	params := map[string]any{"snapshot": json.RawMessage(raw)}
	if st, ok := ctx.Value(callKey{}).(*callState); ok && owner == nil {
		params["parent_request_id"] = st.id
	} else if owner != nil {
		params["resource_owner"] = owner
	}
	// Revision check and send under one lock, so concurrent publishers cannot
	// reorder revisions on the wire.
	e.presentMu.Lock()
	defer e.presentMu.Unlock()
	if last := e.presentRev.Load(); snap.Revision <= last {
		return localError("snapshot revision %d does not increase (last sent %d)", snap.Revision, last)
	}
	if err := e.conn.Notify(protocol.MethodPresentationUpdate, params); err != nil {
		return err
	}
	e.presentRev.Store(snap.Revision)
	return nil
}

// PublishPresentation is UpdatePresentation under its old name.
//
// Deprecated: use UpdatePresentation, named for the wire's presentation/update
// (docs/glossary.md); PublishPresentation goes in the release after next.
func (e *Extension) PublishPresentation(ctx context.Context, snap protocol.Snapshot, owner *protocol.ResourceOwner) error {
	return e.UpdatePresentation(ctx, snap, owner)
}
