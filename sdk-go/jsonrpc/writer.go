package jsonrpc

import (
	"io"
	"sync"
)

// writer owns the output: exactly one goroutine at a time holds the right to write
// (the writing flag), so frames go out whole and in order. A caller that finds the
// writer idle writes its own frame at once (no goroutine hand-off on the hot path);
// otherwise the frame is queued for whoever holds the right, which drains the queue
// before letting go. The reader only ever queues (sendAsync), so it never waits for
// a slow peer (the in-flight limit bounds the responses it queues). Every other
// sender waits while maxQueuedBytes are queued: a peer that stops reading makes
// handlers wait (back-pressure, wire.md §10) instead of their progress events and
// notifications piling up in memory without bound.
type writer struct {
	w       io.Writer
	onFrame func(Direction, []byte)
	onError func(error)

	mu      sync.Mutex
	space   *sync.Cond // signalled when the queue is taken (or the writer closes)
	queue   [][]byte
	queued  int // bytes in queue
	peak    int // the most bytes ever queued (tests read it)
	writing bool
	closed  bool
	wake    chan struct{}
	done    chan struct{}
	buf     []byte // owned by the holder of the writing right
}

func newWriter(w io.Writer, onFrame func(Direction, []byte), onError func(error)) *writer {
	wr := &writer{w: w, onFrame: onFrame, onError: onError, wake: make(chan struct{}, 1), done: make(chan struct{})}
	wr.space = sync.NewCond(&wr.mu)
	go wr.loop()
	return wr
}

// send writes one complete frame (without its newline), directly when the writer
// is idle. It fails once the writer is closed or broken.
func (wr *writer) send(frame []byte) error { return wr.enqueue(frame, true) }

// sendAsync queues a frame for the writer goroutine and never blocks.
func (wr *writer) sendAsync(frame []byte) error { return wr.enqueue(frame, false) }

// maxQueuedBytes is how much a blocking sender lets queue up before it waits: the
// size the Python SDK grows its pipe to.
const maxQueuedBytes = 1 << 20

func (wr *writer) enqueue(frame []byte, direct bool) error {
	wr.mu.Lock()
	for direct && wr.queued >= maxQueuedBytes && !wr.closed {
		wr.space.Wait()
	}
	if wr.closed {
		wr.mu.Unlock()
		return transportError("connection closed: frame not written")
	}
	if wr.writing || !direct || len(wr.queue) > 0 {
		wr.queue = append(wr.queue, frame)
		wr.queued += len(frame)
		wr.peak = max(wr.peak, wr.queued)
		idle := !wr.writing
		wr.mu.Unlock()
		if idle {
			wr.signal()
		}
		return nil
	}
	wr.writing = true
	wr.mu.Unlock()
	wr.drain([][]byte{frame})
	return nil
}

func (wr *writer) signal() {
	select {
	case wr.wake <- struct{}{}:
	default:
	}
}

// drain writes batch, then whatever was queued meanwhile, then gives up the
// writing right. The caller holds the right.
func (wr *writer) drain(batch [][]byte) {
	for {
		buf := wr.buf[:0]
		for _, f := range batch {
			if wr.onFrame != nil {
				wr.onFrame(Outbound, f)
			}
			buf = append(buf, f...)
			buf = append(buf, '\n')
		}
		_, err := wr.w.Write(buf)
		if cap(buf) > 4<<20 {
			buf = nil // do not keep a huge buffer after one large frame
		}
		wr.buf = buf
		wr.mu.Lock()
		if err != nil {
			wr.closed, wr.writing = true, false
			wr.takeQueue()
			wr.mu.Unlock()
			wr.signal()
			wr.onError(err)
			return
		}
		if len(wr.queue) == 0 {
			wr.writing = false
			closed := wr.closed
			wr.mu.Unlock()
			if closed {
				wr.signal() // let the goroutine see the end
			}
			return
		}
		batch = wr.takeQueue()
		wr.mu.Unlock()
	}
}

// takeQueue empties the queue for the holder of the writing right and wakes the
// senders waiting for space. The caller holds mu.
func (wr *writer) takeQueue() [][]byte {
	batch := wr.queue
	wr.queue, wr.queued = nil, 0
	wr.space.Broadcast()
	return batch
}

// close stops accepting frames; what is queued is still written.
func (wr *writer) close() {
	wr.mu.Lock()
	wr.closed = true
	wr.space.Broadcast() // a waiting sender fails instead of waiting for good
	wr.mu.Unlock()
	wr.signal()
}

// loop writes frames queued while nobody held the writing right, and closes done
// once the writer is closed and empty.
func (wr *writer) loop() {
	defer close(wr.done)
	for range wr.wake {
		wr.mu.Lock()
		if wr.writing {
			wr.mu.Unlock()
			continue // the holder drains, then signals if closed
		}
		if len(wr.queue) == 0 {
			closed := wr.closed
			wr.mu.Unlock()
			if closed {
				return
			}
			continue
		}
		batch := wr.takeQueue()
		wr.writing = true
		wr.mu.Unlock()
		wr.drain(batch)
		wr.signal() // re-check: closed, or more frames
	}
}
