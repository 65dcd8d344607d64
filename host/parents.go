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
		// A notification written after the answer is handled (in order) once the answer
		// is checked: it must not be lost to the moment between the two.
		if req.IsNotification() {
			if !g.initAnswered.Load() {
				return nil, nil
			}
			select {
			case <-g.readyCh:
			case <-ctx.Done(): // the connection closed
			}
			if !g.ready.Load() {
				return nil, nil // the handshake failed
			}
			return g.ext.host.services.Handle(ctx, g.caller, req)
		}
		return nil, jsonrpc.NewError(protocol.CodeServiceUnavailable, req.Method+" before the initialize handshake completed", map[string]string{"reason": "not_initialized"})
	}
	return g.ext.host.services.Handle(ctx, g.caller, req)
}

// onFrame feeds the recorder and tracks which host requests are active parents: an
// outbound owner-carrying request becomes active before the extension can see it; our
// $/cancelRequest for it settles it, and so does its response once delivered
// (Options.OnResponse: after every notification the extension wrote before it). A
// $/cancelRequest also starts the request's cancellation grace, which its response ends
// as soon as it is read (cancelgrace.go).
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
	case dir == jsonrpc.Outbound && f.Method != nil && *f.Method == protocol.MethodCancelRequest && f.Params.ID != nil:
		g.settle(*f.Params.ID)
		g.armCancelGrace(*f.Params.ID)
	case dir == jsonrpc.Inbound && f.Method == nil && f.ID != nil:
		g.answered(*f.ID)
	}
}

// dropped reports notifications the connection read and never handled (still queued
// when the drain bound ran out): to Logf and, when the services take it, as a diagnostic.
func (g *generation) dropped(n int) {
	g.ext.host.opts.Logf("%s[%d]: %d notifications dropped: the connection closed before they were handled", g.manifest.Name, g.number, n)
	if r, ok := g.ext.host.services.(DropReporter); ok {
		r.NotificationsDropped(g.caller, n)
	}
}

// responded is Options.OnResponse: the extension's first response answers initialize
// (the host asks nothing else first); every response settles its request as a parent.
func (g *generation) responded(id jsonrpc.ID) {
	g.initAnswered.Store(true)
	g.settle(id)
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
