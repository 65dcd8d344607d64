package host

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// This file serves the extension's requests and tracks which host requests are active
// parents, so reverse services derive owners from the host's own requests only.

// handle serves the extension's requests and notifications through the host's services,
// bound to the identity this generation was started with.
func (g *generation) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if !g.ready.Load() {
		// Nothing is negotiated before initialize is answered, so nothing can be served.
		if req.IsNotification() {
			return nil, nil
		}
		return nil, jsonrpc.NewError(protocol.CodeServiceUnavailable, req.Method+" before the initialize handshake completed", map[string]string{"reason": "not_initialized"})
	}
	return g.ext.host.services.Handle(ctx, g.caller, req)
}

// onFrame feeds the recorder and tracks which host requests are active parents: an
// outbound owner-carrying request becomes active before the extension can see it; its
// response, or our $/cancelRequest for it, settles it. A $/cancelRequest also starts the
// request's cancellation grace, which its response ends (cancelgrace.go).
func (g *generation) onFrame(dir jsonrpc.Direction, frame []byte) {
	if tap := g.ext.host.opts.OnFrame; tap != nil {
		tap(g.manifest.Name, g.number, dir, frame)
	}
	var f struct {
		ID     *jsonrpc.ID `json:"id"`
		Method *string     `json:"method"`
		Params struct {
			ID *jsonrpc.ID `json:"id"`
		} `json:"params"`
	}
	_ = json.Unmarshal(frame, &f) // partial decode is enough; the transport judges validity
	switch {
	case dir == jsonrpc.Outbound && f.Method != nil && f.ID != nil:
		g.sent(*f.ID)
		if ownerMethods[*f.Method] {
			g.mu.Lock()
			g.parents[idKey(*f.ID)] = *f.ID
			g.mu.Unlock()
		}
	case dir == jsonrpc.Outbound && f.Method != nil && *f.Method == "$/cancelRequest" && f.Params.ID != nil:
		g.settle(*f.Params.ID)
		g.armCancelGrace(*f.Params.ID)
	case dir == jsonrpc.Inbound && f.Method == nil && f.ID != nil:
		g.settle(*f.ID)
		g.answered(*f.ID)
	}
}

func (g *generation) settle(id jsonrpc.ID) {
	g.mu.Lock()
	_, ok := g.parents[idKey(id)]
	delete(g.parents, idKey(id))
	g.mu.Unlock()
	if ok {
		g.ext.host.services.ParentSettled(g.caller, id)
	}
}

// activeParent answers Caller.ActiveParent for this generation.
func (g *generation) activeParent(id jsonrpc.ID) (Owner, bool) {
	if id.IsString() {
		return Owner{}, false // host ids are integers
	}
	g.mu.Lock()
	_, ok := g.parents[idKey(id)]
	g.mu.Unlock()
	if !ok {
		return Owner{}, false
	}
	return g.owner(), true
}

// idKey is an id's JSON form, so the integer 5 and the string "5" never collide.
func idKey(id jsonrpc.ID) string {
	b, err := id.MarshalJSON()
	if err != nil {
		return "?" + id.String()
	}
	return string(b)
}
