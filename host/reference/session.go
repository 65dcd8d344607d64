package reference

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Session drives the lifecycle notifications of the host's one session (wire.md §5), as
// octet-host does: a `call` invocation or a console call is a turn, each tool call a tool
// event. A script with [[lifecycle]] entries replaces these synthetic events with exactly
// its own, sent in file order by BeginSession. A Session is safe for concurrent use (the
// run console serves commands concurrently): turn and call ids are handed out under a lock.
type Session struct {
	h        *host.Host
	id       string
	scripted bool
	router   *services.Router // its durable questions (questions.go)

	mu    sync.Mutex
	turns int
	calls int
}

// BeginSession opens the session: session/started, or the script's lifecycle events.
// Extensions started later are told session/started by the core themselves.
func (h *Host) BeginSession() (*Session, error) {
	s := &Session{h: h.Host, id: h.sessionID, router: h.router}
	events, err := services.ScriptedLifecycle(h.script)
	if err != nil {
		return nil, err
	}
	if len(events) > 0 {
		s.scripted = true
		for _, ev := range events {
			p, _ := services.LifecycleParams(ev) // validated by ScriptedLifecycle
			h.Lifecycle(string(ev.Method), p)
		}
		return s, nil
	}
	h.Lifecycle(protocol.MethodSessionStarted, map[string]any{"session_id": s.id})
	return s, nil
}

// ID is the session id.
func (s *Session) ID() string { return s.id }

// TurnStarted opens the next turn ("turn-1", "turn-2", ...) and returns its id.
func (s *Session) TurnStarted() string {
	s.mu.Lock()
	s.turns++
	turn := fmt.Sprintf("turn-%d", s.turns)
	s.mu.Unlock()
	if !s.scripted {
		s.h.Lifecycle(protocol.MethodTurnStarted, map[string]any{"session_id": s.id, "turn_id": turn})
	}
	return turn
}

// TurnSettled closes turn with outcome ("completed", "failed", "interrupted", ...).
func (s *Session) TurnSettled(turn, outcome string) {
	if !s.scripted {
		s.h.Lifecycle(protocol.MethodTurnSettled, map[string]any{"session_id": s.id, "turn_id": turn, "outcome": outcome})
	}
}

// CallTool calls tool name on e inside turn, bracketed by tool/started and tool/settled,
// with every extension's before_tool_call and after_tool_call dispositions applied; the
// call id ("call-1", ...) is also sent in tool/call. Errors are the core's
// (*jsonrpc.Error, *host.TimeoutError, *host.TransportError, ...).
func (s *Session) CallTool(ctx context.Context, e *host.Extension, turn, name string, args json.RawMessage) (json.RawMessage, error) {
	s.mu.Lock()
	s.calls++
	callID := fmt.Sprintf("call-%d", s.calls)
	s.mu.Unlock()
	// Selection and execution use one check: the tool must be in the model's catalog now
	// (the owner's allowed_tools and private_tools, operator denials; host.ModelCatalog).
	if err := s.h.CheckModelCall(e.Name(), name); err != nil {
		return nil, err
	}
	return s.call(ctx, e, turn, name, args, callID)
}

// CallOwnerTool is the session owner calling one of its own tools, private ones included
// (they are hidden from the model's catalog, not from their owner); operator denials still
// win. The hooks and lifecycle events are those of any call.
func (s *Session) CallOwnerTool(ctx context.Context, turn, name string, args json.RawMessage) (json.RawMessage, error) {
	e := s.h.Extension(s.h.Owner())
	if e == nil {
		return nil, &host.ToolNotAllowedError{Tool: name, Reason: "not_owner"}
	}
	if err := s.h.CheckOwnerCall(e.Name(), name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.calls++
	callID := fmt.Sprintf("call-%d", s.calls)
	s.mu.Unlock()
	return s.call(ctx, e, turn, name, args, callID)
}

// call runs one checked call between its lifecycle events.
func (s *Session) call(ctx context.Context, e *host.Extension, turn, name string, args json.RawMessage, callID string) (json.RawMessage, error) {
	base := map[string]any{"session_id": s.id, "turn_id": turn, "call_id": callID, "name": name}
	if !s.scripted {
		s.h.Lifecycle(protocol.MethodToolStarted, base)
	}
	raw, err := s.callHooked(ctx, e, name, args, callID)
	if !s.scripted {
		settled := map[string]any{"outcome": toolOutcome(ctx, err), "is_error": err != nil || isError(raw)}
		for k, v := range base {
			settled[k] = v
		}
		s.h.Lifecycle(protocol.MethodToolSettled, settled)
	}
	return raw, err
}

// callHooked is the call between the tool hooks: before_tool_call may block it or
// replace its arguments (which the core still checks against the tool's parameters),
// after_tool_call may withhold or replace its result (host.BeforeToolCall, AfterToolCall).
func (s *Session) callHooked(ctx context.Context, e *host.Extension, name string, args json.RawMessage, callID string) (json.RawMessage, error) {
	args, err := s.h.BeforeToolCall(ctx, name, args)
	if err != nil {
		return nil, err
	}
	raw, err := e.CallToolAs(ctx, name, args, callID)
	if err != nil {
		return nil, err
	}
	return s.h.AfterToolCall(ctx, name, args, raw)
}

// End closes the session with outcome ("completed", "interrupted", ...).
func (s *Session) End(outcome string) {
	if !s.scripted {
		s.h.Lifecycle(protocol.MethodSessionSettled, map[string]any{"session_id": s.id, "outcome": outcome})
	}
}

// toolOutcome names how a tool call ended for tool/settled.
func toolOutcome(ctx context.Context, err error) string {
	var te *host.TimeoutError
	var tr *host.TransportError
	switch {
	case err == nil:
		return "completed"
	case ctx.Err() != nil:
		return "interrupted"
	case errors.As(err, &te):
		return "cancelled"
	case errors.As(err, &tr):
		return "disconnected"
	}
	return "failed"
}

func isError(raw json.RawMessage) bool {
	var r struct {
		IsError bool `json:"is_error"`
	}
	return json.Unmarshal(raw, &r) == nil && r.IsError
}
