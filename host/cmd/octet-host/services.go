package main

import (
	"context"
	"sync"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// routerAdapter presents services.Router as host.Services. The host core keeps its own
// Caller type so it does not depend on the services package; this file is the only place
// the two meet.
type routerAdapter struct {
	r *services.Router
	h *host.Host

	mu      sync.Mutex
	callers map[*host.Caller]*services.Caller
	hostOf  map[*services.Caller]*host.Caller
}

func (a *routerAdapter) caller(c *host.Caller) *services.Caller {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sc, ok := a.callers[c]; ok {
		return sc
	}
	sc := &services.Caller{
		Extension: c.Extension, Principal: c.Principal, APIVersion: c.APIVersion, InstanceID: c.InstanceID,
		Generation: c.Generation, Features: c.Features, Secrets: c.Secrets, Commands: c.Commands, UI: c.UI,
		Context: c.Context, Presentation: c.Presentation, Notifications: c.Notifications, Confirmations: c.Confirmations,
		ScratchDir: c.ScratchDir,
		ActiveParent: func(id jsonrpc.ID) (services.Owner, bool) {
			o, ok := c.ActiveParent(id)
			return services.Owner{SessionID: o.SessionID, InstanceID: o.InstanceID, Generation: o.Generation}, ok
		},
	}
	a.callers[c] = sc
	a.hostOf[sc] = c
	return sc
}

func (a *routerAdapter) Handle(ctx context.Context, c *host.Caller, req *jsonrpc.Request) (any, error) {
	return a.r.Handle(ctx, a.caller(c), req)
}

func (a *routerAdapter) ParentSettled(c *host.Caller, id jsonrpc.ID) {
	a.r.ParentSettled(a.caller(c), id)
}

func (a *routerAdapter) GenerationEnded(c *host.Caller) {
	sc := a.caller(c)
	a.r.GenerationEnded(sc)
	a.mu.Lock()
	delete(a.callers, c)
	delete(a.hostOf, sc)
	a.mu.Unlock()
}

func (a *routerAdapter) SeedCatalog(c *host.Caller, tools []host.ToolDefinition) error {
	return a.r.SeedCatalog(a.caller(c), toServices(tools))
}

// onCatalog is services.RouterConfig.OnCatalog: the dynamic catalog goes into the host's
// all-extensions catalog atomically, or the mutation is refused.
func (a *routerAdapter) onCatalog(sc *services.Caller, revision int64, tools []services.ToolDefinition) error {
	a.mu.Lock()
	c := a.hostOf[sc]
	a.mu.Unlock()
	if c == nil || a.h == nil {
		return nil
	}
	out := make([]host.ToolDefinition, len(tools))
	for i, t := range tools {
		out[i] = host.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters, OutputSchema: t.OutputSchema}
	}
	return a.h.OnCatalog(c, revision, out)
}

func toServices(tools []host.ToolDefinition) []services.ToolDefinition {
	out := make([]services.ToolDefinition, len(tools))
	for i, t := range tools {
		out[i] = services.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters, OutputSchema: t.OutputSchema}
	}
	return out
}
