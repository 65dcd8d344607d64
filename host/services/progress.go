package services

import (
	"context"
	"encoding/base64"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// progress accepts a $/progress event only for an active parent and a
// sequence above the last one accepted for it; anything stale or inactive
// is dropped silently (progress is ephemeral and races settlement by
// design). Malformed events become diagnostics.
func (r *Router) progress(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	event, err := progressEvent(c, raw)
	if err != nil {
		return nil, err
	}
	p, err := decodeWorded[protocol.ProgressParams](raw, progressWording)
	if err != nil {
		return nil, err
	}
	if o := p.Event.ProgressOutput; o != nil && o.Encoding == "base64" {
		if _, err := base64.StdEncoding.DecodeString(o.Data); err != nil {
			return nil, invalidParams("event.data", "is not valid base64: %v", err)
		}
	}
	id := requestID(p.ParentRequestID)
	if _, ok := r.activeParent(c, id); !ok {
		return nil, nil
	}
	r.mu.Lock()
	g := r.genLocked(c)
	stale := p.Sequence <= g.progress[id]
	if !stale {
		g.progress[id] = p.Sequence
	}
	r.mu.Unlock()
	if stale {
		return nil, nil
	}
	r.emit(c, EventProgress, Progress{Parent: id, Sequence: p.Sequence, Event: event})
	return nil, nil
}

// progressEvent returns the event member as sent (what the console is shown) and applies
// the rule that a decoration event needs the negotiated progress_decoration feature (the
// schema knows the event, not the negotiation).
func progressEvent(c *Caller, raw json.RawMessage) (json.RawMessage, error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil, nil // not an object: the schema says so
	}
	var head map[string]json.RawMessage
	if json.Unmarshal(top["event"], &head) == nil && string(head["type"]) == `"decoration"` &&
		!c.Features[string(protocol.FeatureProgressDecoration)] {
		return nil, invalidParams("event.type", "decoration needs the progress_decoration feature, which was not negotiated")
	}
	return top["event"], nil
}
