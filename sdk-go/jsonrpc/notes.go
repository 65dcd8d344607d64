package jsonrpc

import (
	"context"
	"sync"
	"time"
)

// queued is one entry of the notification queue: a notification to handle, or (with
// Options.OrderedDelivery) a response to deliver once everything read before it was
// handled.
type queued struct {
	req  *Request
	resp *message
	size int
}

// notificationQueue hands the peer's notifications to the handler one at a time, in
// arrival order (lifecycle events must not overtake each other), on its own goroutine so
// the reader never waits for a handler. Bounded (Options.MaxQueuedNotifications, …Bytes),
// a full queue makes the reader wait instead: the peer's writes block until it drains.
// Paced (Options.NotificationRate), the loop waits for a token before each notification.
// Whatever is still queued when the queue closes is counted in dropped.
type notificationQueue struct {
	c     *Conn
	ctx   context.Context // the notification handlers' context; ends when the queue closes
	stop  context.CancelFunc
	limit queueLimit
	rate  *tokenBucket // nil: unpaced

	mu      sync.Mutex
	cond    *sync.Cond // signalled on every change of items, busy or closed
	items   []queued
	bytes   int
	busy    bool // the loop is handling an item taken off items
	closed  bool
	dropped int           // notifications read and never handled
	peak    int           // the most entries ever queued at once (tests check the bound)
	done    chan struct{} // closed when the loop has returned (after close)
}

type queueLimit struct{ frames, bytes int } // 0: unbounded

func newNotificationQueue(c *Conn) *notificationQueue {
	q := &notificationQueue{c: c, done: make(chan struct{}),
		limit: queueLimit{c.opts.MaxQueuedNotifications, c.opts.MaxQueuedNotificationBytes}}
	q.ctx, q.stop = context.WithCancel(context.Background())
	q.cond = sync.NewCond(&q.mu)
	if c.opts.NotificationRate > 0 {
		q.rate = newTokenBucket(c.opts.NotificationRate, c.opts.NotificationBurst)
	}
	go q.loop()
	return q
}

// full reports whether it cannot take an entry of size now. An empty queue takes any
// entry, so one frame larger than the byte bound still passes.
func (q *notificationQueue) full(size int) bool {
	if len(q.items) == 0 {
		return false
	}
	return (q.limit.frames > 0 && len(q.items) >= q.limit.frames) ||
		(q.limit.bytes > 0 && q.bytes+size > q.limit.bytes)
}

// push queues an entry, waiting (the reader stops reading) while the queue is full. A
// notification pushed after close is counted as dropped; a response is delivered at
// once (its Call has already failed with the connection).
func (q *notificationQueue) push(e queued) {
	q.mu.Lock()
	if e.resp != nil && len(q.items) == 0 && !q.busy {
		// Nothing read before it is still waiting or being handled (only the reader
		// pushes, and this is the reader): deliver at once, without a goroutine switch.
		q.mu.Unlock()
		q.c.deliver(e.resp)
		return
	}
	for !q.closed && q.full(e.size) {
		q.cond.Wait()
	}
	if q.closed {
		if e.req != nil {
			q.dropped++
		}
		q.mu.Unlock()
		if e.resp != nil {
			q.c.deliver(e.resp)
		}
		return
	}
	q.items = append(q.items, e)
	q.bytes += e.size
	q.peak = max(q.peak, len(q.items))
	q.cond.Broadcast()
	q.mu.Unlock()
}

// close stops the queue: what it still holds is discarded and counted, a waiting push
// and the loop return, and running handlers' contexts end. It returns the number of
// notifications dropped so far.
func (q *notificationQueue) close() int {
	q.mu.Lock()
	if !q.closed {
		q.closed = true
		for _, e := range q.items {
			if e.req != nil {
				q.dropped++
			}
		}
		q.items, q.bytes = nil, 0
		q.cond.Broadcast()
	}
	n := q.dropped
	q.mu.Unlock()
	q.stop()
	return n
}

// droppedSoFar is the count of notifications dropped until now.
func (q *notificationQueue) droppedSoFar() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dropped
}

// drained is closed once the queue is empty and the loop idle (or the queue closed).
func (q *notificationQueue) drained() <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		q.mu.Lock()
		for !q.closed && (len(q.items) > 0 || q.busy) {
			q.cond.Wait()
		}
		q.mu.Unlock()
		close(ch)
	}()
	return ch
}

func (q *notificationQueue) loop() {
	defer close(q.done)
	for {
		q.mu.Lock()
		for !q.closed && len(q.items) == 0 {
			q.cond.Wait()
		}
		if q.closed {
			q.mu.Unlock()
			return
		}
		e := q.items[0]
		if e.req != nil && q.rate != nil {
			// Wait for a token with the entry still queued: a close meanwhile counts it.
			if d := q.rate.reserve(time.Now()); d > 0 {
				q.mu.Unlock()
				q.pause(d)
				continue
			}
		}
		q.items[0] = queued{}
		q.items = q.items[1:]
		q.bytes -= e.size
		q.busy = true
		q.cond.Broadcast() // room for a waiting push
		q.mu.Unlock()
		if e.resp != nil {
			q.c.deliver(e.resp)
		} else if _, err := q.c.call(q.ctx, e.req); err != nil {
			q.c.opts.Logf("jsonrpc: notification %q: %v", e.req.Method, err)
		}
		q.mu.Lock()
		q.busy = false
		q.cond.Broadcast()
		q.mu.Unlock()
	}
}

// pause waits d, or less when the queue closes.
func (q *notificationQueue) pause(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-q.ctx.Done():
	}
}

// tokenBucket paces notifications: rate per second after a burst.
type tokenBucket struct {
	rate, burst, tokens float64
	last                time.Time
}

func newTokenBucket(rate float64, burst int) *tokenBucket {
	if burst < 1 {
		burst = 1
	}
	return &tokenBucket{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

// reserve takes a token and returns 0, or returns how long until one is available.
func (b *tokenBucket) reserve(now time.Time) time.Duration {
	if !b.last.IsZero() {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
}
