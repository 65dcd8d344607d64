package host

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The typed host→extension calls (wire.md §5). Each refuses locally, without a round trip,
// what the extension did not register in its handshake, so a caller's mistake is reported
// as the caller's and never reaches the extension.

// ExecuteCommand sends command/execute.
func (e *Extension) ExecuteCommand(ctx context.Context, name string, args []string) (json.RawMessage, error) {
	if err := e.registered(ctx, func(g *generation) bool { return containsDef(g.neg.commands, name) }, "command", name); err != nil {
		return nil, err
	}
	return e.checkedRequest(ctx, protocol.MethodCommandExecute, name, &protocol.CommandExecuteParams{Name: name, Arguments: args})
}

// RunHook sends hook/run with the hook's payload.
func (e *Extension) RunHook(ctx context.Context, hook string, payload any) (json.RawMessage, error) {
	if err := e.registered(ctx, func(g *generation) bool {
		return contains(orManifest(g.neg.hooks, g.manifest.Contributes.Hooks), hook)
	}, "hook", hook); err != nil {
		return nil, err
	}
	return e.checkedRequest(ctx, protocol.MethodHookRun, hook, map[string]any{"hook": hook, "payload": payload})
}

// runHook is RunHook with the generated params (the host's own hook points).
func (e *Extension) runHook(ctx context.Context, hook string, params *protocol.HookRunParams) (json.RawMessage, error) {
	if err := e.registered(ctx, func(g *generation) bool {
		return contains(orManifest(g.neg.hooks, g.manifest.Contributes.Hooks), hook)
	}, "hook", hook); err != nil {
		return nil, err
	}
	params.SetResourceOwner(nil) // the previous extension's owner is not this one's
	return e.checkedRequest(ctx, protocol.MethodHookRun, hook, params)
}

// CollectContext sends context/collect (params: session_id?, prompt?).
func (e *Extension) CollectContext(ctx context.Context, params map[string]any) (json.RawMessage, error) {
	if err := e.registered(ctx, func(g *generation) bool {
		return (g.neg.context == nil && g.manifest.Contributes.Context) || (g.neg.context != nil && *g.neg.context)
	}, "context", "contribution"); err != nil {
		return nil, err
	}
	return e.checkedRequest(ctx, protocol.MethodContextCollect, "context", params)
}

// CollectStatus sends status/collect for surface (status, header, footer).
func (e *Extension) CollectStatus(ctx context.Context, surface string) (json.RawMessage, error) {
	if err := e.registered(ctx, func(g *generation) bool {
		return contains(orManifest(g.neg.ui, g.manifest.Contributes.UI), surface)
	}, "ui surface", surface); err != nil {
		return nil, err
	}
	return e.checkedRequest(ctx, protocol.MethodStatusCollect, surface, &protocol.StatusCollectParams{Surface: protocol.UISurface(surface)})
}

// RenderTool sends tool/render for a tool result the extension registered a renderer for.
func (e *Extension) RenderTool(ctx context.Context, name string, args, result json.RawMessage) (json.RawMessage, error) {
	if err := e.registered(ctx, func(g *generation) bool {
		return contains(orManifest(g.neg.renderers, g.manifest.Contributes.ToolRenderers), name)
	}, "tool renderer", name); err != nil {
		return nil, err
	}
	return e.checkedRequest(ctx, protocol.MethodToolRender, name, map[string]any{"name": name, "arguments": args, "result": result})
}

// checkedRequest sends a typed request and judges the answer against the method's result
// type for the serving generation's API version: a result that breaks it is a *ResultError
// and never reaches the caller.
func (e *Extension) checkedRequest(ctx context.Context, method, name string, params any) (json.RawMessage, error) {
	var out json.RawMessage
	err := e.requestOn(ctx, method, params, &out, nil, func(g *generation) error {
		r := getReuse() // the parsed result is only judged, never kept
		defer putReuse(r)
		_, err := g.checkResult(method, name, out, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (e *Extension) registered(ctx context.Context, ok func(*generation) bool, what, name string) error {
	g, err := e.current(ctx)
	if err != nil {
		return err
	}
	if !ok(g) {
		return &NotRegisteredError{Extension: e.name, What: what, Name: name}
	}
	return nil
}

func containsDef(defs []protocol.CommandDefinition, name string) bool {
	for _, d := range defs {
		if d.Name == name {
			return true
		}
	}
	return false
}

// orManifest is what the handshake registered; an omitted list means the manifest's.
func orManifest(registered, declared []string) []string {
	if registered == nil {
		return declared
	}
	return registered
}
