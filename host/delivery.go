package host

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Delivery recording (seed 000, "MCP and delivery"): every send the host makes to an
// extension that carries a caller's input (a tool call, a command, a hook run: what a turn
// delivers) is persisted with its original input before it is written, and ends with one
// final receipt once its answer (or its failure) is known. A send without a final receipt
// is one the host did not live to see settled; the operator's recovery replays its
// persisted input (Extension.Recover) and the replay's own receipt links to the original.

// deliveredMethods are the host requests that get a receipt: the ones carrying input the
// caller would lose with the host. Collecting context or status, rendering, configure and
// shutdown are the host's own questions, asked again by any new run.
var deliveredMethods = map[string]bool{protocol.MethodToolCall: true, protocol.MethodCommandExecute: true, protocol.MethodHookRun: true}

// Deliveries records sends and their receipts (Options.Deliveries); the reference host's
// SQLite store implements it. Nil records nothing.
type Deliveries interface {
	// Sent persists a send before it is written, durably: a host killed after it returns
	// still knows the send and its input. Its error refuses the send, since a send that
	// could not be recorded could not be recovered either.
	Sent(ctx context.Context, s Send) (Delivery, error)
}

// Delivery is one recorded send, waiting for its final receipt.
type Delivery interface {
	// Written is told the request's JSON-RPC id on the sending goroutine, just before the
	// request is written: what the extension then streams about that id (progress) counts
	// towards the receipt. A send that fails before it is written is never told.
	Written(id jsonrpc.ID)
	// Final records the send's final receipt; it is called exactly once, after every
	// stream event the extension wrote before its answer was handled.
	Final(r Receipt)
}

// Send is one send as the host is about to write it.
type Send struct {
	Extension  string
	Identity   string // the trusted identity (name@install root), recovery's key
	Dir        string // the extension's directory, where recovery starts it
	InstanceID string
	Generation int64
	Method     string
	Name       string          // the tool, command or hook
	Params     json.RawMessage // the params as written, resource owner included
	// RecoveryOf is the send this one replays (WithRecoveryOf), 0 for an original send.
	RecoveryOf int64
	At         time.Time
}

// Receipt is how a send ended.
type Receipt struct {
	// Outcome: completed (the extension answered with a result), error (it answered with
	// an error), timeout (the request timeout ran out and the host cancelled it),
	// disconnected (the process or its connection ended first), cancelled (the caller or
	// a shutdown gave up on it), failed (the host could not take the answer it read).
	Outcome   string
	ErrorCode *int64          // the error answer's code, for outcome error
	Result    json.RawMessage // the result as answered, for outcome completed
	Err       error           // why, for every other outcome
	Duration  time.Duration
}

// Receipt outcomes.
const (
	OutcomeCompleted    = "completed"
	OutcomeError        = "error"
	OutcomeTimeout      = "timeout"
	OutcomeDisconnected = "disconnected"
	OutcomeCancelled    = "cancelled"
	OutcomeFailed       = "failed"
)

type recoveryOfCtx struct{}

// WithRecoveryOf marks the sends made with ctx as the replay of the recorded send id: their
// receipts link to it (the operator's recovery).
func WithRecoveryOf(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, recoveryOfCtx{}, id)
}

// beginDelivery records a send about to be written, or returns nil when this host records
// none or the method gets no receipt. wire is the params as encodeHostParams left them.
func (g *generation) beginDelivery(ctx context.Context, method string, params, wire any) (Delivery, error) {
	rec := g.ext.host.opts.Deliveries
	if rec == nil || !deliveredMethods[method] {
		return nil, nil
	}
	raw, ok := wire.(json.RawMessage)
	if !ok {
		b, err := json.Marshal(wire)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	s := Send{Extension: g.manifest.Name, Identity: g.manifest.Identity(), Dir: g.ext.entry.Dir, InstanceID: g.caller.InstanceID,
		Generation: g.number, Method: method, Name: sendName(params, raw), Params: raw, At: time.Now()}
	if id, ok := ctx.Value(recoveryOfCtx{}).(int64); ok {
		s.RecoveryOf = id
	}
	return rec.Sent(ctx, s)
}

// sendName is the tool, command or hook a send names.
func sendName(params any, raw json.RawMessage) string {
	switch p := params.(type) {
	case *protocol.ToolCallParams:
		return string(p.Name)
	case *protocol.CommandExecuteParams:
		return string(p.Name)
	}
	var n struct {
		Name string `json:"name"`
		Hook string `json:"hook"`
	}
	_ = json.Unmarshal(raw, &n)
	if n.Hook != "" {
		return n.Hook
	}
	return n.Name
}

// receipt classifies how a send ended; err is send's error, out the raw result.
func receipt(err error, out any, took time.Duration) Receipt {
	r := Receipt{Duration: took, Err: err}
	var we *jsonrpc.Error
	var te *TimeoutError
	var tr *TransportError
	switch {
	case err == nil:
		r.Outcome = OutcomeCompleted
		if p, ok := out.(*json.RawMessage); ok && p != nil {
			r.Result = *p
		} else if b, merr := json.Marshal(out); merr == nil {
			r.Result = b
		}
	case errors.As(err, &we):
		r.Outcome, r.ErrorCode = OutcomeError, &we.Code
	case errors.As(err, &te):
		r.Outcome = OutcomeTimeout
	case errors.As(err, &tr):
		r.Outcome = OutcomeDisconnected
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, new(*UnavailableError)):
		r.Outcome = OutcomeCancelled
	default:
		r.Outcome = OutcomeFailed
	}
	return r
}
