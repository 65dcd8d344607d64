package target

import (
	"context"
	"sync"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// servicesAdapter presents the reference host's services.Router as host.Services, so
// benchmarked calls to kv.get and artifact/publish go through the real services
// (SQLite store included), as under octet-host.
type servicesAdapter struct {
	r *services.Router

	mu      sync.Mutex
	callers map[*host.Caller]*services.Caller
}

func newServicesAdapter(r *services.Router) *servicesAdapter {
	return &servicesAdapter{r: r, callers: map[*host.Caller]*services.Caller{}}
}

func (a *servicesAdapter) caller(c *host.Caller) *services.Caller {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sc, ok := a.callers[c]; ok {
		return sc
	}
	sc := &services.Caller{
		Extension: c.Extension, Principal: c.Principal, APIVersion: c.APIVersion, InstanceID: c.InstanceID,
		Generation: c.Generation, Features: c.Features, Secrets: c.Secrets, Commands: c.Commands, UI: c.UI,
		Context: c.Context, Presentation: c.Presentation, Notifications: c.Notifications,
		Confirmations: c.Confirmations, ScratchDir: c.ScratchDir,
		ActiveParent: func(id jsonrpc.ID) (services.Owner, bool) {
			o, ok := c.ActiveParent(id)
			return services.Owner{SessionID: o.SessionID, InstanceID: o.InstanceID, Generation: o.Generation}, ok
		},
	}
	a.callers[c] = sc
	return sc
}

func (a *servicesAdapter) Handle(ctx context.Context, c *host.Caller, req *jsonrpc.Request) (any, error) {
	return a.r.Handle(ctx, a.caller(c), req)
}

func (a *servicesAdapter) ParentSettled(c *host.Caller, id jsonrpc.ID) {
	a.r.ParentSettled(a.caller(c), id)
}

func (a *servicesAdapter) GenerationEnded(c *host.Caller) {
	a.r.GenerationEnded(a.caller(c))
	a.mu.Lock()
	delete(a.callers, c)
	a.mu.Unlock()
}

func (a *servicesAdapter) SeedCatalog(c *host.Caller, tools []host.ToolDefinition) error {
	out := make([]services.ToolDefinition, len(tools))
	for i, t := range tools {
		out[i] = services.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters, OutputSchema: t.OutputSchema}
	}
	return a.r.SeedCatalog(a.caller(c), out)
}
