package services

import (
	"fmt"

	"github.com/octet-kit/octet/host/script"
)

// Lifecycle notification methods (wire.md §5), in the order a session runs.
var LifecycleMethods = []string{
	"session/started", "turn/started", "tool/started",
	"tool/settled", "turn/settled", "session/settled",
}

var outcomes = map[string]bool{
	"completed": true, "failed": true, "cancelled": true, "interrupted": true,
	"disconnected": true, "shutdown": true, "limit": true,
}

// LifecycleEvent is one lifecycle observation the core sends to subscribed
// extensions with lifecycle_events negotiated.
type LifecycleEvent struct {
	Method    string
	SessionID string
	TurnID    string
	CallID    string
	Name      string
	Outcome   string
	IsError   bool
}

// Params validates e and returns its wire params: exactly the fields its
// method carries, so a turn event never leaks a tool name and so on.
func (e LifecycleEvent) Params() (map[string]any, error) {
	need := func(field, v string) error {
		if v == "" {
			return fmt.Errorf("lifecycle %s: %s is required", e.Method, field)
		}
		return nil
	}
	p := map[string]any{}
	if err := need("session_id", e.SessionID); err != nil {
		return nil, err
	}
	p["session_id"] = e.SessionID
	settled := false
	switch e.Method {
	case "session/started":
	case "session/settled":
		settled = true
	case "turn/started", "turn/settled":
		if err := need("turn_id", e.TurnID); err != nil {
			return nil, err
		}
		p["turn_id"] = e.TurnID
		settled = e.Method == "turn/settled"
	case "tool/started", "tool/settled":
		for _, f := range [][2]string{{"turn_id", e.TurnID}, {"call_id", e.CallID}, {"name", e.Name}} {
			if err := need(f[0], f[1]); err != nil {
				return nil, err
			}
			p[f[0]] = f[1]
		}
		if e.Method == "tool/settled" {
			settled = true
			p["is_error"] = e.IsError
		}
	default:
		return nil, fmt.Errorf("lifecycle: unknown method %q (want one of %v)", e.Method, LifecycleMethods)
	}
	if settled {
		if !outcomes[e.Outcome] {
			return nil, fmt.Errorf("lifecycle %s: outcome %q is not one of completed, failed, cancelled, interrupted, disconnected, shutdown, limit", e.Method, e.Outcome)
		}
		p["outcome"] = e.Outcome
	}
	return p, nil
}

// Subscribed reports whether an extension whose initialize result listed
// subscription should receive method; an omitted or empty subscription
// selects all six.
func Subscribed(subscription []string, method string) bool {
	if len(subscription) == 0 {
		return true
	}
	for _, s := range subscription {
		if s == method {
			return true
		}
	}
	return false
}

// ScriptedLifecycle returns the script's lifecycle events, validated, in
// file order, for the core to emit.
func ScriptedLifecycle(s *script.Script) ([]LifecycleEvent, error) {
	if s == nil {
		return nil, nil
	}
	out := make([]LifecycleEvent, 0, len(s.Lifecycle))
	for i, l := range s.Lifecycle {
		e := LifecycleEvent(l)
		if _, err := e.Params(); err != nil {
			return nil, fmt.Errorf("script lifecycle[%d]: %w", i, err)
		}
		out = append(out, e)
	}
	return out, nil
}
