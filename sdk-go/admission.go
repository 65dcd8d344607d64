package octet

import (
	"context"
	"sync"
)

// arrivals orders admission by arrival. The transport serves each request on its own
// goroutine, so a request read before the shutdown can reach the admission check after
// the shutdown's handler has stopped admission, and would be refused -32003 (or, had it
// got in, be missed by the drain) although the host sent it first. Every served request
// passes once its admission is decided (counted by the pool, or answered); shutdown and
// stdin EOF wait for every request read before them to pass, then stop admission, so
// "new requests get -32003" means requests read after them.
type arrivals struct {
	mu      sync.Mutex
	next    uint64          // every request with a smaller Seq has passed
	passed  map[uint64]bool // passed out of order, all > next
	changed chan struct{}   // closed and replaced on a pass while someone waits
	waiting int
}

func (a *arrivals) init() {
	a.next = 1
	a.passed = map[uint64]bool{}
	a.changed = make(chan struct{})
}

// pass records that request seq's admission is decided. Seq 0 (a notification, or a
// request not read by a connection) is not tracked.
func (a *arrivals) pass(seq uint64) {
	if seq == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if seq != a.next {
		a.passed[seq] = true
		return
	}
	a.next++
	for a.passed[a.next] {
		delete(a.passed, a.next)
		a.next++
	}
	if a.waiting > 0 {
		close(a.changed)
		a.changed = make(chan struct{})
	}
}

// waitThrough waits until every request with Seq ≤ last has passed, or ctx ends.
func (a *arrivals) waitThrough(ctx context.Context, last uint64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for a.next <= last {
		ch := a.changed
		a.waiting++
		a.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
		}
		a.mu.Lock()
		a.waiting--
		if ctx.Err() != nil {
			return a.next > last
		}
	}
	return true
}
