package host

import (
	"fmt"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Non-cooperative cancellation (seed 002: the host "terminates non-cooperative generations
// after bounded grace"). Cancellation is cooperative: after the host's $/cancelRequest the
// extension answers (-32800 or the result that won). A request still unanswered when
// CancelGrace has passed means the extension ignores cancellation; the generation ends as if
// it had crashed (its other calls are cancelled, the process group is terminated: SIGTERM,
// then SIGKILL after TermGrace) and supervision replaces it. The end reason, and so the
// status error and the log line, start with ReasonNonCooperative.

// ReasonNonCooperative classifies a generation the host ended because a cancelled request
// was not answered within CancelGrace.
const ReasonNonCooperative = "non_cooperative"

// sent records a host request about to be written, so a later $/cancelRequest arms a grace
// only for a request whose answer has not arrived: a reply can race the caller giving up, and
// the cancel that follows it must not count against the extension.
func (g *generation) sent(id jsonrpc.ID) {
	g.mu.Lock()
	if g.outstanding == nil {
		g.outstanding = map[jsonrpc.ID]struct{}{}
	}
	g.outstanding[id] = struct{}{}
	g.mu.Unlock()
}

// armCancelGrace starts the grace of a host request the host just cancelled.
func (g *generation) armCancelGrace(id jsonrpc.ID) {
	grace := g.ext.host.opts.CancelGrace
	key := id
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancelling == nil {
		g.cancelling = map[jsonrpc.ID]*time.Timer{}
	}
	if _, open := g.outstanding[key]; !open {
		return // answered already: the reply won the race with the cancel
	}
	if _, dup := g.cancelling[key]; dup || g.terminated != "" {
		return
	}
	g.cancelling[key] = time.AfterFunc(grace, func() { g.nonCooperative(key, grace) })
	g.cancelPending.Add(1)
}

// answered ends the grace of a cancelled request once its response arrives.
func (g *generation) answered(id jsonrpc.ID) {
	key := id
	g.mu.Lock()
	delete(g.outstanding, key)
	if g.cancelPending.Load() == 0 {
		g.mu.Unlock()
		return
	}
	if t, ok := g.cancelling[key]; ok {
		t.Stop()
		delete(g.cancelling, key)
		g.cancelPending.Add(-1)
	}
	g.mu.Unlock()
}

// disarmCancelGraces stops every grace timer: the generation has ended.
func (g *generation) disarmCancelGraces() {
	g.mu.Lock()
	for key, t := range g.cancelling {
		t.Stop()
		delete(g.cancelling, key)
	}
	g.cancelPending.Store(0)
	g.mu.Unlock()
}

// nonCooperative ends the generation: request key was not answered within grace of the
// host's $/cancelRequest. A generation stopping on purpose is left to its own bounded stop.
func (g *generation) nonCooperative(key jsonrpc.ID, grace time.Duration) {
	g.mu.Lock()
	if _, ok := g.cancelling[key]; !ok || g.terminated != "" || g.intentional.Load() {
		g.mu.Unlock()
		return
	}
	delete(g.cancelling, key)
	g.cancelPending.Add(-1)
	g.terminated = fmt.Sprintf("%s: request %s was not answered within %s of $/cancelRequest; the host terminated the generation", ReasonNonCooperative, idKey(key), grace)
	calls := make([]*inflightCall, 0, len(g.inflight))
	for c := range g.inflight {
		calls = append(calls, c)
	}
	g.mu.Unlock()
	select {
	case <-g.ended:
		return
	default:
	}
	g.ext.host.opts.Logf("%s[%d]: %s", g.manifest.Name, g.number, g.terminated)
	for _, c := range calls {
		c.cancel() // the calls then end with the transport error of the stopped process
	}
	g.proc.Stop(g.ext.host.opts.TermGrace) // SIGTERM to the group, SIGKILL after TermGrace
}

// terminatedReason is the non-cooperative end reason, or "".
func (g *generation) terminatedReason() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.terminated
}
