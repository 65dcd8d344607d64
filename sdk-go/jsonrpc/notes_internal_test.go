package jsonrpc

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A full queue pauses the reader: with the handler held until the reader has read one
// frame more than the queue holds, the queue never holds more than its bound (an
// unbounded one would hold every frame the peer wrote).
func TestNotificationQueueBoundPausesReader(t *testing.T) {
	const n, limit = 200, 4
	release := make(chan struct{})
	var read, handled atomic.Int64
	r, w := io.Pipe()
	c := NewConn(r, io.Discard, Options{
		MaxQueuedNotifications: limit,
		Handler: func(ctx context.Context, req *Request) (any, error) {
			<-release
			handled.Add(1)
			return nil, nil
		},
		OnFrame: func(dir Direction, frame []byte) {
			// One in the handler, limit queued, one waiting to be queued.
			if dir == Inbound && read.Add(1) == limit+2 {
				close(release)
			}
		},
	})
	defer c.Close()
	_, _ = io.WriteString(w, strings.Repeat(`{"jsonrpc":"2.0","method":"note"}`+"\n", n))
	w.Close()
	<-c.Done() // EOF: everything was read, so everything was queued once
	for handled.Load() != n {
		select {
		case <-c.notes.drained():
		case <-time.After(10 * time.Second):
			t.Fatalf("handled %d of %d", handled.Load(), n)
		}
	}
	c.notes.mu.Lock()
	peak := c.notes.peak
	c.notes.mu.Unlock()
	if peak != limit {
		t.Fatalf("the queue held up to %d notifications; want exactly its bound %d", peak, limit)
	}
}

// The pace is a token bucket: a burst at once, then one per 1/rate.
func TestTokenBucket(t *testing.T) {
	b := newTokenBucket(100, 3)
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if d := b.reserve(t0); d != 0 {
			t.Fatalf("burst token %d: wait %v", i, d)
		}
	}
	if d := b.reserve(t0); d != 10*time.Millisecond {
		t.Fatalf("after the burst: wait %v, want 10ms", d)
	}
	if d := b.reserve(t0.Add(10 * time.Millisecond)); d != 0 {
		t.Fatalf("10ms later: wait %v, want a token", d)
	}
	if d := b.reserve(t0.Add(time.Hour)); d != 0 {
		t.Fatalf("an hour later: wait %v", d)
	}
	for range 2 { // refilled to the burst, not beyond
		b.reserve(t0.Add(time.Hour))
	}
	if d := b.reserve(t0.Add(time.Hour)); d == 0 {
		t.Fatal("the bucket refilled beyond its burst")
	}
}
