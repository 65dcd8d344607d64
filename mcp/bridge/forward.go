package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// handler is the octet tool handler of MCP tool mcpName of server u, published as name.
func (b *Bridge) handler(u *upstream, name, mcpName string, info toolInfo) func(ctx context.Context, args json.RawMessage) (octet.Result, error) {
	return func(ctx context.Context, args json.RawMessage) (octet.Result, error) {
		u.mu.Lock()
		cs, published := u.session, u.tools[name] == mcpName
		state := u.state
		u.mu.Unlock()
		if !published {
			return octet.Result{}, octet.Fail(protocol.CodeInvalidParams,
				fmt.Sprintf("tool %s was withdrawn: MCP server %s no longer lists %q", name, u.name, mcpName), map[string]string{"server": u.name, "tool": mcpName})
		}
		if cs == nil {
			return octet.Result{}, octet.Fail(protocol.CodeServiceUnavailable,
				fmt.Sprintf("MCP server %s is %s", u.name, state), map[string]string{"server": u.name, "state": string(state)})
		}
		return b.forward(ctx, u, cs, mcpName, info, args)
	}
}

// forward calls the MCP tool under the octet call's context: cancelling the octet call
// cancels ctx, which makes the MCP SDK send notifications/cancelled for the request.
func (b *Bridge) forward(ctx context.Context, u *upstream, cs *mcp.ClientSession, tool string, info toolInfo, args json.RawMessage) (octet.Result, error) {
	call := &inflight{ctx: ctx}
	tok := b.tokens.Add(1)
	b.calls.Store(tok, call)
	defer b.calls.Delete(tok)
	u.addInflight(call)
	defer u.removeInflight(call)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Meta: mcp.Meta{"progressToken": tok}, Name: tool, Arguments: args})
	if err != nil {
		return octet.Result{}, callError(ctx, u.name, tool, err)
	}
	return b.result(ctx, u.name, info, res)
}

// callError maps a failed MCP call to the octet error the host sees: the server's
// invalid-params and unknown-tool answers stay -32602 with the server's message,
// cancellation stays cancellation, a lost connection is -32002 (unavailable) and anything
// else is -32603 carrying the MCP code.
func callError(ctx context.Context, server, tool string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	data := map[string]any{"server": server, "tool": tool}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		data["mcp_code"] = we.Code
		switch we.Code {
		case jsonrpc.CodeInvalidParams, jsonrpc.CodeMethodNotFound:
			return octet.Fail(protocol.CodeInvalidParams, we.Message, data)
		}
		return octet.Fail(protocol.CodeInternalError, fmt.Sprintf("MCP server %s: %s", server, we.Message), data)
	}
	if errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF) || strings.Contains(err.Error(), "EOF") {
		return octet.Fail(protocol.CodeServiceUnavailable, fmt.Sprintf("MCP server %s exited during the call", server), data)
	}
	return octet.Fail(protocol.CodeInternalError, fmt.Sprintf("MCP server %s: %v", server, err), data)
}

// progress forwards an MCP progress notification as $/progress of the call its token
// names; a stale or unknown token is ignored (progress is ephemeral).
func (b *Bridge) progress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	p := req.Params
	tok, ok := tokenOf(p.ProgressToken)
	if !ok {
		return
	}
	v, ok := b.calls.Load(tok)
	if !ok {
		return
	}
	call := v.(*inflight)
	cur := p.Progress
	st := octet.ProgressStatus{Current: &cur}
	if p.Message != "" {
		st.Message = octet.Ptr(p.Message)
	}
	if p.Total > 0 {
		t := p.Total
		st.Total = &t
	}
	if cur < 0 {
		st.Current = nil
	}
	if err := b.ext.Progress.Report(call.ctx, octet.Status(st)); err != nil {
		b.log.Debug("progress not forwarded", "err", err.Error())
	}
}

// logRate and logBurst bound the log notifications of one server that reach the
// extension log: a steady logRate a second, bursts up to logBurst.
const (
	logRate  = 100
	logBurst = 500
)

// bucket is a token bucket (not safe for concurrent use without mu).
type bucket struct {
	mu     sync.Mutex
	tokens float64
	last   time.Time
}

func (b *bucket) allow(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.last.IsZero() {
		b.tokens, b.last = logBurst, now
	}
	b.tokens = min(logBurst, b.tokens+now.Sub(b.last).Seconds()*logRate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func tokenOf(v any) (int64, bool) {
	switch t := v.(type) {
	case float64:
		return int64(t), float64(int64(t)) == t
	case int64:
		return t, true
	case int:
		return int64(t), true
	case json.Number:
		n, err := t.Int64()
		return n, err == nil
	}
	return 0, false
}

// logMessage writes an MCP notifications/message as a line of the extension's log
// (stderr, which the host keeps), at the nearest slog level.
func (u *upstream) logMessage(ctx context.Context, req *mcp.LoggingMessageRequest) {
	if !u.logLimit.allow(time.Now()) {
		// A flood: dropped and counted (mcp_status), so neither the extension log nor the
		// host pays for a server that writes without end.
		if u.dropped.Add(1) == 1 {
			u.b.log.Warn("MCP server floods log notifications; dropping those over the limit", "server", u.name, "per_second", logRate)
			u.b.statusChanged()
		}
		return
	}
	p := req.Params
	level := slog.LevelInfo
	switch p.Level {
	case "debug":
		level = slog.LevelDebug
	case "notice", "info":
		level = slog.LevelInfo
	case "warning":
		level = slog.LevelWarn
	case "error", "critical", "alert", "emergency":
		level = slog.LevelError
	}
	u.b.log.Log(ctx, level, "MCP server log", "server", u.name, "logger", p.Logger, "mcp_level", string(p.Level), "data", p.Data)
}
