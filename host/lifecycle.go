package host

import (
	"sort"
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// lifecycleState remembers which host sessions are open, so a generation that starts later
// (restart, reload, activation) is seeded with session/started, and one that stops while a
// session is open receives session/settled with outcome "shutdown" (its terminal event).
type lifecycleState struct {
	mu   sync.Mutex
	open map[string]bool
}

// Lifecycle sends a lifecycle notification (session/started, turn/settled, …; wire.md §5)
// to every ready extension that negotiated lifecycle_events and subscribed to method.
// Notifications are best effort: a failed write is the connection's problem, not the caller's.
func (h *Host) Lifecycle(method string, params map[string]any) {
	sid, _ := params["session_id"].(string)
	h.lc.mu.Lock()
	switch method {
	case protocol.MethodSessionStarted:
		h.lc.open[sid] = true
	case protocol.MethodSessionSettled:
		delete(h.lc.open, sid)
	}
	h.lc.mu.Unlock()
	for _, e := range h.Extensions() {
		e.mu.Lock()
		g := e.cur
		e.mu.Unlock()
		if g != nil {
			g.lifecycle(method, params)
		}
	}
}

func (h *Host) openSessions() []string {
	h.lc.mu.Lock()
	defer h.lc.mu.Unlock()
	out := make([]string, 0, len(h.lc.open))
	for s := range h.lc.open {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// lifecycle sends one notification to g if it negotiated lifecycle_events and subscribed.
func (g *generation) lifecycle(method string, params map[string]any) {
	if g.neg == nil || !g.neg.features[string(protocol.FeatureLifecycleEvents)] || !subscribed(g.neg.lifecycle, method) {
		return
	}
	sid, _ := params["session_id"].(string)
	g.mu.Lock()
	if g.sessions == nil {
		g.sessions = map[string]bool{}
	}
	switch method {
	case protocol.MethodSessionStarted:
		g.sessions[sid] = true
	case protocol.MethodSessionSettled:
		delete(g.sessions, sid)
	}
	g.mu.Unlock()
	_ = g.conn.Notify(method, params)
}

// seedLifecycle tells a newly installed generation about the sessions already open.
func (g *generation) seedLifecycle() {
	for _, sid := range g.ext.host.openSessions() {
		g.lifecycle(protocol.MethodSessionStarted, map[string]any{"session_id": sid})
	}
}

// settleLifecycle sends the terminal session/settled to a stopping generation.
func (g *generation) settleLifecycle() {
	g.mu.Lock()
	var open []string
	for s := range g.sessions {
		open = append(open, s)
	}
	g.mu.Unlock()
	sort.Strings(open)
	for _, sid := range open {
		g.lifecycle(protocol.MethodSessionSettled, map[string]any{"session_id": sid, "outcome": string(protocol.OutcomeShutdown)})
	}
}

// subscribed: an omitted or empty subscription selects all six events.
func subscribed(subscription []string, method string) bool {
	return len(subscription) == 0 || contains(subscription, method)
}
