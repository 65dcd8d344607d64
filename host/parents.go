package host

import (
	"context"

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
		// What the extension writes after the answer (a tools/register, a log line) waits
		// until the host has checked the answer and installed the generation (markReady),
		// and is served then: it must not be lost to the moment between the two.
		if !g.initAnswered.Load() {
			if req.IsNotification() {
				return nil, nil
			}
			return nil, notInitialized(req.Method)
		}
		runHook(&hookWaitReady, g.manifest.Name)
		select {
		case <-g.readyCh:
		case <-ctx.Done(): // the connection closed
		}
		if !g.ready.Load() { // the handshake failed or the generation was discarded
			if req.IsNotification() {
				return nil, nil
			}
			return nil, notInitialized(req.Method)
		}
	}
	return g.ext.host.services.Handle(ctx, g.caller, req)
}

func notInitialized(method string) error {
	return jsonrpc.NewError(protocol.CodeServiceUnavailable, method+" before the initialize handshake completed", map[string]string{"reason": "not_initialized"})
}

// frameTap is the connection's OnFrame: the host's frame tap (Options.OnFrame: recorder,
// trace) for this generation, or nil when there is none, so that no frame is handed
// anywhere for nothing.
func (g *generation) frameTap() func(jsonrpc.Direction, []byte) {
	tap := g.ext.host.opts.OnFrame
	if tap == nil {
		return nil
	}
	return func(dir jsonrpc.Direction, frame []byte) { tap(g.manifest.Name, g.number, dir, frame) }
}

// onMessage tracks which host requests are active parents, from the envelope the
// connection already decoded (no second decode of the frame): an outbound
// owner-carrying request becomes active before the extension can see it; our
// $/cancelRequest for it settles it, and so does its response once delivered
// (Options.OnResponse: after every notification the extension wrote before it). A
// $/cancelRequest also starts the request's cancellation grace, which its response ends
// as soon as it is read (cancelgrace.go).
func (g *generation) onMessage(dir jsonrpc.Direction, env jsonrpc.Envelope) {
	switch {
	case dir == jsonrpc.Outbound && env.IsRequest():
		g.sent(env.ID)
		if ownerMethods[env.Method] {
			g.mu.Lock()
			g.parents[env.ID] = struct{}{}
			g.mu.Unlock()
		}
	case dir == jsonrpc.Outbound && env.Method == protocol.MethodCancelRequest && !env.CancelID.IsZero():
		g.settle(env.CancelID)
		g.armCancelGrace(env.CancelID)
	case dir == jsonrpc.Inbound && env.IsResponse():
		// The first response answers initialize (the host asks nothing else first). It
		// is noted here, in read order, so a request read after it waits for the
		// handshake instead of being refused (handle).
		if !g.initAnswered.Load() {
			g.initAnswered.Store(true)
		}
		g.answered(env.ID)
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

// responded is Options.OnResponse: every response settles its request as a parent.
func (g *generation) responded(id jsonrpc.ID) { g.settle(id) }

func (g *generation) settle(id jsonrpc.ID) {
	g.mu.Lock()
	_, ok := g.parents[id]
	delete(g.parents, id)
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
	_, ok := g.parents[id]
	g.mu.Unlock()
	if !ok {
		return Owner{}, false
	}
	return g.owner(), true
}

// idKey is an id's JSON form, for messages (the integer 5 prints as 5, the string "5" as "5").
func idKey(id jsonrpc.ID) string {
	b, err := id.MarshalJSON()
	if err != nil {
		return "?" + id.String()
	}
	return string(b)
}
