package protocol

import "encoding/json"

// LifecycleNotification is one lifecycle event as it happens: which event it is (Method, the
// schema's LifecycleEvent enum, which is also its wire method) and the fields of its params.
// Each event carries a subset of the fields (wire.md §5); the others stay empty. It is the one
// Go type for an occurrence: the SDK hands it to lifecycle handlers (octet.LifecycleHandler),
// and the host's script and services emit it. LifecycleEvent names the kind, this the
// occurrence (docs/glossary.md).
type LifecycleNotification struct {
	Method    LifecycleEvent  `json:"-"`
	SessionID string          `json:"session_id"`
	TurnID    string          `json:"turn_id,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Outcome   string          `json:"outcome,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Raw       json.RawMessage `json:"-"` // the params as received (an SDK sets it; a host leaves it nil)
}
