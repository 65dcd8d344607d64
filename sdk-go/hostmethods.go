package octet

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// hostMethods implements protocol.HostHandler: one method per method the schema says an
// extension receives. The generated dispatch table (protocol.NewHostRoutes) binds them, so a
// method added to schema/methods.json without a handler here does not compile. Params are
// already validated by the table when a handler runs (work methods) or are checked by the
// handler itself (initialize, shutdown).
type hostMethods struct{ e *Extension }

var _ protocol.HostHandler[*jsonrpc.Request] = hostMethods{}

func (h hostMethods) Initialize(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.initialize(ctx, req)
}

func (h hostMethods) Shutdown(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.shutdownRequest(ctx, req)
}

// CancelRequest is never routed here: the transport consumes $/cancelRequest itself.
func (h hostMethods) CancelRequest(context.Context, *jsonrpc.Request) (any, error) { return nil, nil }

// ToolCall is reached only through serve, which takes the decoded fast path first.
func (h hostMethods) ToolCall(context.Context, *jsonrpc.Request) (any, error) {
	return nil, jsonrpc.NewError(protocol.CodeInternalError, "tool/call bypassed its decoder", nil)
}

func (h hostMethods) CommandExecute(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p protocol.CommandExecuteParams
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, invalidParams("", "command/execute params: %v", err)
	}
	for _, c := range h.e.commands {
		if c.name == p.Name {
			args := p.Arguments
			if args == nil {
				args = []string{}
			}
			return c.fn(ctx, args)
		}
	}
	return nil, invalidParams("/name", "command %q is not served by this extension", p.Name)
}

func (h hostMethods) HookRun(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Hook    string          `json:"hook"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, invalidParams("", "hook/run params: %v", err)
	}
	fn := h.e.hooks[p.Hook]
	if fn == nil {
		return nil, invalidParams("/hook", "hook %q is not served by this extension", p.Hook)
	}
	return fn(ctx, p.Payload)
}

func (h hostMethods) ContextCollect(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if h.e.context == nil {
		return nil, invalidParams("", "this extension contributes no context")
	}
	items, err := h.e.context(ctx, req.Params)
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []ContextItem{}
	}
	return map[string]any{"items": items}, nil
}

func (h hostMethods) StatusCollect(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Surface protocol.UISurface `json:"surface"`
	}
	_ = json.Unmarshal(req.Params, &p)
	fn := h.e.statuses[string(p.Surface)]
	if fn == nil {
		return nil, invalidParams("/surface", "surface %q is not served by this extension", p.Surface)
	}
	res, err := fn(ctx, req.Params)
	if err != nil {
		return nil, err
	}
	if res.Surface == "" {
		res.Surface = p.Surface
	}
	return res, nil
}

func (h hostMethods) ToolRender(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(req.Params, &p)
	fn := h.e.renderers[p.Name]
	if fn == nil {
		return nil, invalidParams("/name", "no renderer for tool %q", p.Name)
	}
	segs, err := fn(ctx, req.Params)
	if err != nil {
		return nil, err
	}
	return protocol.ToolRenderResult{Segments: segs}, nil // nil segments marshal as []
}

// The lifecycle events all go to observe, which delivers them to their subscribers.

func (h hostMethods) SessionStarted(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.observe(ctx, req)
}

func (h hostMethods) SessionSettled(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.observe(ctx, req)
}

func (h hostMethods) TurnStarted(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.observe(ctx, req)
}

func (h hostMethods) TurnSettled(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.observe(ctx, req)
}

func (h hostMethods) ToolStarted(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.observe(ctx, req)
}

func (h hostMethods) ToolSettled(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return h.e.observe(ctx, req)
}
