package services

import (
	"fmt"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// presentState is one generation's presentation stream: the last accepted
// revision and the current one-second rate window.
type presentState struct {
	lastRevision int64 // -1 before the first snapshot
	windowStart  time.Time
	count        int
	pending      *PresentationUpdate // coalesced, last wins
	diagnosed    bool                // one diagnostic per throttled window
	stop         func() bool         // pending flush timer
}

// submitPresentation applies revision ordering and the 32-per-second rate:
// within a window the first 32 snapshots go out at once; later ones replace
// each other (last wins) and the survivor goes out when the window ends,
// opening the next window. Revisions are checked on arrival so a coalesced
// stream stays monotonic.
func (r *Router) submitPresentation(c *Caller, u PresentationUpdate) {
	now := r.now()
	r.mu.Lock()
	g := r.genLocked(c)
	if g.present == nil {
		g.present = &presentState{lastRevision: -1}
	}
	ps := g.present
	if u.Revision <= ps.lastRevision {
		last := ps.lastRevision
		r.mu.Unlock()
		r.diagnose(c, protocol.MethodPresentationUpdate, fmt.Sprintf("revision %d is not above the last accepted revision %d; snapshot dropped", u.Revision, last))
		return
	}
	ps.lastRevision = u.Revision
	if ps.pending == nil && now.Sub(ps.windowStart) >= time.Second {
		ps.windowStart, ps.count, ps.diagnosed = now, 0, false
	}
	if ps.pending == nil && ps.count < presentationPerSecond {
		ps.count++
		r.mu.Unlock()
		r.emit(c, EventPresentation, u)
		return
	}
	ps.pending = &u
	diagnose := !ps.diagnosed
	ps.diagnosed = true
	if ps.stop == nil {
		wait := ps.windowStart.Add(time.Second).Sub(now)
		if wait < 0 {
			wait = 0
		}
		key := genKey{c.InstanceID, c.Generation}
		cc := *c
		ps.stop = r.cfg.Timers.AfterFunc(wait, func() { r.flushPresentation(&cc, key) })
	}
	r.mu.Unlock()
	if diagnose {
		r.diagnose(c, protocol.MethodPresentationUpdate, fmt.Sprintf("more than %d snapshots in one second; later ones coalesce (last wins) into the next window", presentationPerSecond))
	}
}

// flushPresentation emits the coalesced snapshot at the end of a throttled
// window; it counts as the first snapshot of the next window.
func (r *Router) flushPresentation(c *Caller, key genKey) {
	r.mu.Lock()
	g := r.gens[key]
	if g == nil || g.present == nil || g.present.pending == nil {
		r.mu.Unlock()
		return
	}
	ps := g.present
	u := *ps.pending
	ps.pending, ps.stop = nil, nil
	ps.windowStart, ps.count, ps.diagnosed = r.now(), 1, false
	r.mu.Unlock()
	r.emit(c, EventPresentation, u)
}
