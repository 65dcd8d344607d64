package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
)

// session drives the lifecycle notifications of one CLI session (wire.md §5): the CLI is the
// reference host's one session, a `call` invocation or each console call is a turn, and each
// tool call is a tool event. A script with [[lifecycle]] entries replaces the synthetic events
// with exactly its own, in file order.
type session struct {
	h        *host.Host
	id       string
	scripted bool
	turns    int
	calls    int
}

func startSession(h *host.Host, id string, sc *script.Script) (*session, error) {
	s := &session{h: h, id: id}
	events, err := services.ScriptedLifecycle(sc)
	if err != nil {
		return nil, err
	}
	if len(events) > 0 {
		s.scripted = true
		for _, ev := range events {
			p, _ := ev.Params() // validated by ScriptedLifecycle
			h.Lifecycle(ev.Method, p)
		}
		return s, nil
	}
	h.Lifecycle("session/started", map[string]any{"session_id": id})
	return s, nil
}

func (s *session) turnStarted() string {
	s.turns++
	turn := fmt.Sprintf("turn-%d", s.turns)
	if !s.scripted {
		s.h.Lifecycle("turn/started", map[string]any{"session_id": s.id, "turn_id": turn})
	}
	return turn
}

func (s *session) turnSettled(turn, outcome string) {
	if !s.scripted {
		s.h.Lifecycle("turn/settled", map[string]any{"session_id": s.id, "turn_id": turn, "outcome": outcome})
	}
}

// tool calls one tool on e inside turn, bracketed by tool/started and tool/settled.
func (s *session) tool(ctx context.Context, e *host.Extension, turn, name string, args json.RawMessage) (json.RawMessage, error) {
	s.calls++
	callID := fmt.Sprintf("call-%d", s.calls)
	base := map[string]any{"session_id": s.id, "turn_id": turn, "call_id": callID, "name": name}
	if !s.scripted {
		s.h.Lifecycle("tool/started", base)
	}
	raw, err := e.CallToolAs(ctx, name, args, callID)
	if !s.scripted {
		settled := map[string]any{"outcome": toolOutcome(ctx, raw, err), "is_error": err != nil || isError(raw)}
		for k, v := range base {
			settled[k] = v
		}
		s.h.Lifecycle("tool/settled", settled)
	}
	return raw, err
}

func (s *session) end(outcome string) {
	if !s.scripted {
		s.h.Lifecycle("session/settled", map[string]any{"session_id": s.id, "outcome": outcome})
	}
}

func toolOutcome(ctx context.Context, raw json.RawMessage, err error) string {
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
