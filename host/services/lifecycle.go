package services

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// LifecycleMethods are the lifecycle notification methods (wire.md §5), in schema order.
var LifecycleMethods = protocol.LifecycleEvents

// LifecycleParams returns e's wire params, the generated params type of its method, checked by
// that type's generated validator: exactly the fields its method carries, so a turn event never
// leaks a tool name and so on. The ids an event carries must be non-empty (a host rule).
func LifecycleParams(e protocol.LifecycleNotification) (map[string]any, error) {
	out := protocol.Outcome(e.Outcome)
	var p any
	var ids [][2]string // the ids the method carries, each a non-empty string (host rule)
	switch e.Method {
	case protocol.MethodSessionStarted:
		p = protocol.SessionStartedParams{SessionID: e.SessionID}
	case protocol.MethodSessionSettled:
		p = protocol.SessionSettledParams{SessionID: e.SessionID, Outcome: out}
	case protocol.MethodTurnStarted:
		p, ids = protocol.TurnStartedParams{SessionID: e.SessionID, TurnID: e.TurnID}, [][2]string{{"turn_id", e.TurnID}}
	case protocol.MethodTurnSettled:
		p, ids = protocol.TurnSettledParams{SessionID: e.SessionID, TurnID: e.TurnID, Outcome: out}, [][2]string{{"turn_id", e.TurnID}}
	case protocol.MethodToolStarted:
		p = protocol.ToolStartedParams{SessionID: e.SessionID, TurnID: e.TurnID, CallID: e.CallID, Name: e.Name}
		ids = [][2]string{{"turn_id", e.TurnID}, {"call_id", e.CallID}, {"name", e.Name}}
	case protocol.MethodToolSettled:
		p = protocol.ToolSettledParams{SessionID: e.SessionID, TurnID: e.TurnID, CallID: e.CallID, Name: e.Name, Outcome: out, IsError: e.IsError}
		ids = [][2]string{{"turn_id", e.TurnID}, {"call_id", e.CallID}, {"name", e.Name}}
	default:
		return nil, fmt.Errorf("lifecycle: unknown method %q (want one of %v)", e.Method, LifecycleMethods)
	}
	for _, f := range append([][2]string{{"session_id", e.SessionID}}, ids...) {
		if f[1] == "" {
			return nil, fmt.Errorf("lifecycle %s: %s is required", e.Method, f[0])
		}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("lifecycle %s: %v", e.Method, err)
	}
	doc, err := strictjson.Parse(b)
	if err == nil {
		err = protocol.Validate(lifecycleParamsType[string(e.Method)], doc)
	}
	if err != nil {
		return nil, fmt.Errorf("lifecycle %s: %v", e.Method, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("lifecycle %s: %v", e.Method, err)
	}
	return m, nil
}

// lifecycleParamsType names each lifecycle method's params type, from the method registry.
var lifecycleParamsType = func() map[string]string {
	out := map[string]string{}
	for _, m := range protocol.Methods {
		if slices.Contains(protocol.LifecycleEvents, m.Name) {
			out[m.Name] = m.Params[m.Versions[len(m.Versions)-1]]
		}
	}
	return out
}()

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
func ScriptedLifecycle(s *script.Script) ([]protocol.LifecycleNotification, error) {
	if s == nil {
		return nil, nil
	}
	for i, e := range s.Lifecycle {
		if _, err := LifecycleParams(e); err != nil {
			return nil, fmt.Errorf("script lifecycle[%d]: %w", i, err)
		}
	}
	return slices.Clone(s.Lifecycle), nil
}
