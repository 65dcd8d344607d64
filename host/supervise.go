package host

import (
	"context"
	"fmt"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// onCrash is called when a generation ends on its own. Only the current, installed
// generation matters: candidates and replaced generations end without supervision.
func (e *Extension) onCrash(g *generation) {
	e.mu.Lock()
	if e.cur != g || e.stopped {
		e.mu.Unlock()
		return
	}
	e.cur = nil
	if e.lifecycleOf() == "oneshot" {
		// A oneshot process lives for one operation; the next call starts a fresh one.
		e.setStateLocked(StateIdle, fmt.Errorf("generation %d %s", g.number, g.endReason))
		e.mu.Unlock()
		e.host.removeTools(e.name)
		return
	}
	if e.host.opts.Clock.Now().Sub(g.readyAt) >= protocol.ReadyResetMS*time.Millisecond {
		e.failures = 0 // 30 s continuously ready resets the budget
	}
	e.setStateLocked(StateBackoff, fmt.Errorf("generation %d %s", g.number, g.endReason))
	e.mu.Unlock()
	e.host.removeTools(e.name) // the dead tool group leaves the catalog at once
	e.host.opts.Logf("%s: generation %d ended unexpectedly (%s); restarting with backoff", e.name, g.number, g.endReason)
	go e.restartLoop()
}

// backoff is the full-jitter delay before restart attempt n (1-based).
func (e *Extension) backoff(n int) time.Duration {
	const base, limit = protocol.BackoffBaseMS * time.Millisecond, protocol.BackoffCapMS * time.Millisecond
	ceiling := base << min(n-1, 20)
	if ceiling > limit || ceiling <= 0 {
		ceiling = limit
	}
	return time.Duration(e.host.opts.Rand() * float64(ceiling))
}

// restartLoop restarts candidate-first: a new generation is started and fully initialised
// before it is published. Eight failed attempts or a permanent error park the extension.
func (e *Extension) restartLoop() {
	for {
		e.mu.Lock()
		if e.stopped || e.cur != nil {
			e.mu.Unlock()
			return
		}
		e.failures++
		n := e.failures
		if n > protocol.ParkAfterFailures {
			e.setStateLocked(StateParked, fmt.Errorf("parked after %d failed restarts; last: %v", protocol.ParkAfterFailures, e.lastErr))
			e.mu.Unlock()
			return
		}
		e.mu.Unlock()

		select {
		case <-e.host.opts.Clock.After(e.backoff(n)):
		case <-e.stopCh:
			return
		}

		e.lifecycle.Lock()
		e.mu.Lock()
		busy := e.stopped || e.cur != nil // a reload won the lock first
		e.mu.Unlock()
		if busy {
			e.lifecycle.Unlock()
			return
		}
		g, err := e.startCandidate(context.Background(), nil)
		if err == nil {
			if err = e.checkCompatible(g); err == nil {
				// Counted in the same step as the switch to ready: a Status showing the
				// new generation ready already counts its restart.
				if err = e.install(g, func() { e.restarts++ }); err != nil {
					g.stop("restart")
				}
			} else {
				g.stop("restart")
			}
		}
		e.lifecycle.Unlock()
		if err == nil {
			return
		}
		e.mu.Lock()
		if IsPermanent(err) {
			e.setStateLocked(StateParked, err)
			e.mu.Unlock()
			return
		}
		e.setStateLocked(StateBackoff, err)
		e.mu.Unlock()
	}
}
