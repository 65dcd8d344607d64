package host

import "context"

// lifecycleOf is the manifest's runtime lifecycle.
func (e *Extension) lifecycleOf() string {
	if e.entry.Manifest == nil {
		return "legacy_resident"
	}
	return e.entry.Manifest.Runtime.Lifecycle
}

// onDemand reports whether the extension starts on its first call instead of at startup
// (lazy_resident, oneshot). Every other lifecycle is resident for the host run, which is
// this reference host's one session.
func (e *Extension) onDemand() bool {
	l := e.lifecycleOf()
	return l == "lazy_resident" || l == "oneshot"
}

// activate starts an idle extension. A failed activation leaves a lazy extension failed (it
// was never ready, so it is not supervised) and a oneshot one idle for the next operation.
func (e *Extension) activate(ctx context.Context) error {
	e.lifecycle.Lock()
	defer e.lifecycle.Unlock()
	e.mu.Lock()
	if e.state != StateIdle || e.stopped {
		e.mu.Unlock()
		return nil // someone else activated it, or it stopped: current() decides
	}
	e.setStateLocked(StateStarting, nil)
	e.mu.Unlock()
	g, err := e.startCandidate(ctx, nil)
	if err == nil {
		if err = e.checkCompatible(g); err == nil {
			err = e.install(g, nil)
		}
		if err != nil {
			g.stop("disable")
		}
	}
	if err != nil {
		e.mu.Lock()
		next := StateFailed
		if e.lifecycleOf() == "oneshot" {
			next = StateIdle
		}
		e.setStateLocked(next, err)
		e.mu.Unlock()
	}
	return err
}

// retire ends a oneshot generation once its operation settled and returns it to idle.
func (e *Extension) retire(g *generation) {
	e.lifecycle.Lock()
	defer e.lifecycle.Unlock()
	e.mu.Lock()
	if e.cur != g {
		e.mu.Unlock()
		return
	}
	e.cur = nil
	e.mu.Unlock()
	e.host.removeTools(e.name)
	g.stop("disable")
	e.mu.Lock()
	if !e.stopped {
		e.setStateLocked(StateIdle, nil)
	}
	e.mu.Unlock()
}
