package services

import (
	"context"
	"encoding/base64"
	"encoding/json"
)

type progressParams struct {
	Parent   json.RawMessage `json:"parent_request_id"`
	Sequence int64           `json:"sequence"`
	Event    json.RawMessage `json:"event"`
}

type progressStatus struct {
	Type    string   `json:"type"`
	Message string   `json:"message,omitempty"`
	Current *float64 `json:"current,omitempty"`
	Total   *float64 `json:"total,omitempty"`
	Unit    string   `json:"unit,omitempty"`
}

type progressOutput struct {
	Type     string `json:"type"`
	Stream   string `json:"stream"`
	Encoding string `json:"encoding"`
	Data     string `json:"data"`
}

type progressDecoration struct {
	Type   string `json:"type"`
	Label  string `json:"label"`
	Detail string `json:"detail,omitempty"`
}

// progress accepts a $/progress event only for an active parent and a
// sequence above the last one accepted for it; anything stale or inactive
// is dropped silently (progress is ephemeral and races settlement by
// design). Malformed events become diagnostics.
func (r *Router) progress(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p progressParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.Sequence < 1 || p.Sequence > maxSafeInteger {
		return nil, invalidParams("sequence", "must be an integer from 1 to 2^53−1")
	}
	if err := validateProgressEvent(c, p.Event); err != nil {
		return nil, err
	}
	id, err := parseParentID(p.Parent)
	if err != nil {
		return nil, err
	}
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
	r.emit(c, EventProgress, Progress{Parent: id, Sequence: p.Sequence, Event: p.Event})
	return nil, nil
}

func validateProgressEvent(c *Caller, raw json.RawMessage) error {
	var head struct {
		Type string `json:"type"`
	}
	if !isObject(raw) || json.Unmarshal(raw, &head) != nil {
		return invalidParams("event", "must be an object with a type")
	}
	switch head.Type {
	case "status":
		var e progressStatus
		if err := decodeAt(raw, &e, "event"); err != nil {
			return err
		}
		if (e.Current != nil && *e.Current < 0) || (e.Total != nil && *e.Total < 0) {
			return invalidParams("event", "current and total must be ≥ 0")
		}
	case "output":
		var e progressOutput
		if err := decodeAt(raw, &e, "event"); err != nil {
			return err
		}
		if e.Stream != "stdout" && e.Stream != "stderr" {
			return invalidParams("event.stream", "%q is not stdout or stderr", e.Stream)
		}
		switch e.Encoding {
		case "utf8":
		case "base64":
			if _, err := base64.StdEncoding.DecodeString(e.Data); err != nil {
				return invalidParams("event.data", "is not valid base64: %v", err)
			}
		default:
			return invalidParams("event.encoding", "%q is not utf8 or base64", e.Encoding)
		}
	case "decoration":
		if !c.Features["progress_decoration"] {
			return invalidParams("event.type", "decoration needs the progress_decoration feature, which was not negotiated")
		}
		var e progressDecoration
		if err := decodeAt(raw, &e, "event"); err != nil {
			return err
		}
		if chars(e.Label) > 64 || chars(e.Detail) > 256 {
			return invalidParams("event", "label is limited to 64 characters and detail to 256")
		}
	default:
		return invalidParams("event.type", "%q is not status, output or decoration", head.Type)
	}
	return nil
}
