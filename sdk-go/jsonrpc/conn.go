package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Direction says which way a frame travelled, for Options.OnFrame.
type Direction int

// The two directions of a frame.
const (
	Inbound  Direction = iota + 1 // read from the peer
	Outbound                      // written to the peer
)

// String returns "in" or "out".
func (d Direction) String() string {
	switch d {
	case Inbound:
		return "in"
	case Outbound:
		return "out"
	}
	return "direction(" + strconv.Itoa(int(d)) + ")"
}

// Request is an incoming request or notification.
type Request struct {
	ID     ID // zero for notifications
	Method string
	Params json.RawMessage // nil when the frame had no params; otherwise an object
	// Seq is a served request's position among the requests this connection's reader
	// has started serving (1, 2, …), so a handler can tell which requests were read
	// before its own although their handlers run concurrently; 0 for a notification.
	Seq uint64
}

// IsNotification reports whether the request expects no answer.
func (r *Request) IsNotification() bool { return r.ID.IsZero() }

// Handler serves requests and notifications. For a request, a returned *Error
// (possibly wrapped) is sent verbatim and any other error becomes internal_error
// (-32603) with its message; the result is marshalled with encoding/json
// (json.RawMessage is sent as is; a value with an AppendJSON(dst []byte) ([]byte, error)
// method, such as the generated protocol types, appends its own encoding). For a notification the result is ignored.
// Handlers run on their own goroutines and may Call the peer.
type Handler func(ctx context.Context, req *Request) (result any, err error)

// Options configures a connection. The zero value is usable.
type Options struct {
	// Handler serves the peer's requests and notifications. Nil answers every
	// request method_not_found.
	Handler Handler
	// MaxMessageBytes bounds one line in either direction (default
	// DefaultMaxMessageBytes, 1 MiB).
	MaxMessageBytes int
	// MaxInFlight bounds the peer's requests served at once (default
	// DefaultMaxInFlight, 64); the next one is answered overloaded (-32001) without
	// pausing the reader.
	MaxInFlight int
	// Cancellation is the protocol's way to withdraw a request (see Cancellation);
	// the zero value has none.
	Cancellation Cancellation
	// IDPrefix selects this side's request ids: "" gives integers 1, 2, …; "go:"
	// gives strings "go:1", "go:2", ….
	IDPrefix string
	// OnFrame, if set, sees every complete frame (without its newline): inbound
	// ones from the reader before decoding, outbound ones from the writer before
	// writing. The slice is only valid during the call.
	OnFrame func(dir Direction, frame []byte)
	// OnMessage, if set, sees the envelope of every request and notification this
	// side sends (before its frame is written) and of every valid message the peer
	// sends (once decoded, before it is dispatched):
	// what a tap needs to follow requests, answers and cancellations without decoding
	// each frame a second time.
	OnMessage func(dir Direction, env Envelope)
	// Logf receives diagnostics (dropped notifications, handler panics).
	Logf func(format string, args ...any)
	// BaseContext, if set, is the parent of every served request's context (Close
	// still ends them all): an owner that must cancel running handlers without closing
	// the connection (a drain that ran out of time) cancels it, and the handlers need
	// no context of their own for it.
	BaseContext context.Context

	// MaxQueuedNotifications and MaxQueuedNotificationBytes bound the peer's
	// notifications read but not yet handled (0: unbounded). While the queue is full
	// the reader stops reading, so a peer flooding notifications is held back by its
	// own blocked writes instead of growing this side's memory. Requests read later
	// wait too (they are not refused): the pause lasts until the queue has room.
	MaxQueuedNotifications     int
	MaxQueuedNotificationBytes int
	// NotificationRate, when positive, paces the notification handler to that many
	// notifications per second after a burst of NotificationBurst; with a bounded
	// queue the pacing reaches the peer as back-pressure. Nothing is dropped for it.
	NotificationRate  float64
	NotificationBurst int
	// OrderedDelivery queues the peer's responses behind the notifications read before
	// them: a Call returns, and OnResponse runs, only once everything the peer wrote
	// before its answer has been handled. The notification handler must then never
	// wait for an answer from the peer (it would wait behind itself).
	OrderedDelivery bool
	// OnResponse, if set, is called with the id of each response the peer sends when
	// it is delivered (whether or not a Call still waits for it), before the Call
	// returns.
	OnResponse func(id ID)
	// NotificationDrain is how long Close keeps handling queued notifications: it
	// closes the writer (the peer sees EOF), reads the peer's output to its end and
	// lets the queue empty, within this bound. Zero discards the queue at once.
	NotificationDrain time.Duration
	// OnDropped, if set, is called once by Close with the number of the peer's
	// notifications that were read and never handled (still queued when the drain
	// bound ran out, or read after it), when that number is not zero.
	OnDropped func(n int)
}

// Conn is one JSON-RPC connection. All methods are safe for concurrent use.
type Conn struct {
	opts   Options
	r      io.Reader
	w      io.Writer
	out    *writer
	nextID atomic.Int64
	seq    atomic.Uint64 // requests the reader has started serving (Request.Seq)
	cancel atomic.Bool   // send the Cancellation when a Call's context ends
	limit  atomic.Int64  // the message limit; SetMaxMessageBytes may change it
	prefix atomic.Pointer[string]

	cancelMethodJSON []byte // Options.Cancellation.Method as a JSON string

	baseCtx    context.Context
	cancelBase context.CancelFunc

	mu       sync.Mutex
	pending  map[ID]chan *message
	inflight map[ID]*serving
	served   chan struct{} // closed and replaced when a served request ends and someone waits
	waiters  int           // WaitServing callers
	err      error
	done     chan struct{}

	notes     *notificationQueue
	readEnded chan struct{} // closed when the reader has stopped for good

	turns       chan readTurn // the reading, handed to an idle server goroutine
	idleServers atomic.Int32  // server goroutines waiting in awaitTurn

	closeOnce sync.Once
}

// NewConn starts a connection reading r and writing w. The reader goroutine starts
// at once. Close closes r and w when they implement io.Closer.
func NewConn(r io.Reader, w io.Writer, opts Options) *Conn {
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	c := &Conn{
		opts:     opts,
		r:        r,
		w:        w,
		pending:  make(map[ID]chan *message),
		inflight: make(map[ID]*serving),
		served:   make(chan struct{}),
		done:     make(chan struct{}),
		turns:    make(chan readTurn),

		readEnded: make(chan struct{}),
	}
	c.cancel.Store(opts.Cancellation.Method != "")
	c.cancelMethodJSON = appendString(nil, opts.Cancellation.Method)
	c.limit.Store(int64(opts.MaxMessageBytes))
	c.prefix.Store(&opts.IDPrefix)
	base := opts.BaseContext
	if base == nil {
		base = context.Background()
	}
	c.baseCtx, c.cancelBase = context.WithCancel(base)
	c.out = newWriter(w, opts.OnFrame, func(err error) {
		c.fail(transportError("write failed: %v", err))
	})
	c.notes = newNotificationQueue(c)
	go c.read()
	return c
}

// SetCancellation turns sending the installed Cancellation on or off (default on when
// Options.Cancellation has one). A peer speaking API 0.1 has no cancellation, so the
// SDK turns it off there; a cancelled Call still returns at once either way. Without a
// Cancellation it stays off.
func (c *Conn) SetCancellation(enabled bool) {
	c.cancel.Store(enabled && c.opts.Cancellation.Method != "")
}

// SetMaxMessageBytes changes the message limit for both directions (the SDK adopts
// the limit the host announces in initialize). Non-positive values are ignored.
func (c *Conn) SetMaxMessageBytes(n int) {
	if n > 0 {
		c.limit.Store(int64(n))
	}
}

// SetIDPrefix changes the prefix of ids for later calls (see Options.IDPrefix): the
// SDK learns in initialize whether the wire wants integer (API 0.1) or "go:" ids.
func (c *Conn) SetIDPrefix(prefix string) { c.prefix.Store(&prefix) }

// maxBytes is the current message limit.
func (c *Conn) maxBytes() int { return int(c.limit.Load()) }

// Done is closed when the connection can no longer carry calls: the peer closed its
// side, a protocol error or write failure happened, or Close was called. Err says why.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection stopped (wrapping ErrTransport), or nil while it
// is open.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// fail records the first reason the connection stopped and wakes every waiter.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	close(c.done)
}

// closeFlushTimeout bounds how long Close waits for queued frames to be written to
// a peer that may have stopped reading.
const closeFlushTimeout = 2 * time.Second

// Close stops the connection: pending Calls fail with ErrTransport, handlers'
// contexts are cancelled, frames already queued are written (bounded), then r and w
// are closed if they are io.Closers. Close is idempotent.
func (c *Conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.fail(transportError("connection closed"))
		c.cancelBase()
		drain := c.opts.NotificationDrain
		if drain <= 0 {
			c.notes.close()
		}
		deadline := time.Now().Add(drain)
		c.out.close()
		waitUntil(c.out.done, time.Now().Add(closeFlushTimeout))
		if wc, ok := c.w.(io.Closer); ok {
			err = wc.Close()
		}
		if drain > 0 {
			// The peer has its EOF; what it wrote before exiting is read to the end
			// and handled, within the bound. Then the queue closes, and the rest of
			// what the peer wrote is still read (bounded), only to be counted.
			waitUntil(c.readEnded, deadline)
			waitUntil(c.notes.drained(), deadline)
			c.notes.close()
			waitUntil(c.readEnded, time.Now().Add(countRestWait))
		}
		if rc, ok := c.r.(io.Closer); ok && any(c.r) != any(c.w) {
			if e := rc.Close(); err == nil {
				err = e
			}
		}
		c.reportDropped()
	})
	return err
}

// countRestWait bounds how long Close, after the drain, keeps reading what the peer
// still writes, without handling it, so the dropped count includes it. Frames the peer
// writes after that are never read, and not counted (its writes fail).
const countRestWait = time.Second

// readerStopWait bounds how long Close waits, once the reader's input is closed, for
// the reader to stop before reporting.
const readerStopWait = 100 * time.Millisecond

// reportDropped tells Options.OnDropped how many notifications were never handled.
func (c *Conn) reportDropped() {
	if c.opts.OnDropped == nil {
		return
	}
	waitUntil(c.readEnded, time.Now().Add(readerStopWait))
	if n := c.notes.droppedSoFar(); n > 0 {
		c.opts.OnDropped(n)
	}
}

// waitUntil waits for ch to close or the deadline to pass.
func waitUntil(ch <-chan struct{}, deadline time.Time) {
	d := time.Until(deadline)
	if d <= 0 {
		select {
		case <-ch:
		default:
		}
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

// newID returns this side's next request id.
func (c *Conn) newID() ID {
	n := c.nextID.Add(1)
	prefix := *c.prefix.Load()
	if prefix == "" {
		return IntID(n)
	}
	return StringID(prefix + strconv.FormatInt(n, 10))
}

// issued reports whether id is one this side has sent: an integer or a prefixed counter
// value (under the first or the current prefix) no greater than the last one handed out.
func (c *Conn) issued(id ID) bool {
	last := c.nextID.Load()
	if n, ok := id.Int(); ok {
		return n >= 1 && n <= last
	}
	for _, prefix := range []string{c.opts.IDPrefix, *c.prefix.Load()} {
		if rest, ok := strings.CutPrefix(id.String(), prefix); ok && prefix != "" {
			if n, err := strconv.ParseInt(rest, 10, 64); err == nil && n >= 1 && n <= last && strconv.FormatInt(n, 10) == rest {
				return true
			}
		}
	}
	return false
}

// encodeParams marshals params, which must encode to a JSON object (or be nil).
func encodeParams(method string, params any) (json.RawMessage, error) {
	if params == nil {
		return nil, nil
	}
	raw, err := marshalValue(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: params of %q: %w", method, err)
	}
	if string(raw) == "null" {
		return nil, nil
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, fmt.Errorf("jsonrpc: params of %q must encode to a JSON object, got %s", method, excerpt(raw))
	}
	return raw, nil
}

// checkSize refuses an outgoing frame over the message limit. kind and method name the
// frame in the error ("request", "tool/call"); they are formatted only when the frame is
// refused, so a call within bounds builds no string.
func (c *Conn) checkSize(frame []byte, kind, method string) error {
	if limit := c.maxBytes(); len(frame) > limit {
		return fmt.Errorf("jsonrpc: %s %q of %d bytes exceeds the %d-byte message limit", kind, method, len(frame), limit)
	}
	return nil
}

// Call sends a request and waits for its response, decoding the result into result
// (nil discards it; *json.RawMessage keeps it raw). An error response is returned as
// *Error. When ctx ends first, Call sends the Cancellation (if one is installed and
// on), returns ctx.Err() at once and drops the late reply. A connection failure returns an error wrapping
// ErrTransport.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	raw, err := encodeParams(method, params)
	if err != nil {
		return err
	}
	id := c.newID()
	frame, err := appendRequest(make([]byte, 0, 64+len(raw)), id, method, raw)
	if err != nil {
		return err
	}
	if err := c.checkSize(frame, "request", method); err != nil {
		return err
	}
	ch := make(chan *message, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if c.opts.OnMessage != nil {
		c.opts.OnMessage(Outbound, Envelope{ID: id, Method: method})
	}
	if fn, ok := ctx.Value(sentIDKey{}).(func(ID)); ok {
		fn(id)
	}
	if err := c.out.send(frame); err != nil {
		c.forget(id)
		return err
	}
	select {
	case m := <-ch:
		return decodeResult(method, m, result)
	case <-ctx.Done():
		c.forget(id)
		if c.cancel.Load() {
			c.sendCancel(id)
		}
		return ctx.Err()
	case <-c.done:
		c.forget(id)
		select {
		case m := <-ch: // the answer arrived just before the connection stopped
			return decodeResult(method, m, result)
		default:
		}
		return c.Err()
	}
}

func (c *Conn) forget(id ID) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

func decodeResult(method string, m *message, result any) error {
	if m.err != nil {
		return m.err
	}
	switch r := result.(type) {
	case nil:
		return nil
	case *json.RawMessage:
		*r = m.result
		return nil
	}
	if err := json.Unmarshal(m.result, result); err != nil {
		return fmt.Errorf("jsonrpc: result of %q: %w", method, err)
	}
	return nil
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	raw, err := encodeParams(method, params)
	if err != nil {
		return err
	}
	frame, err := appendRequest(make([]byte, 0, 64+len(raw)), ID{}, method, raw)
	if err != nil {
		return err
	}
	if err := c.checkSize(frame, "notification", method); err != nil {
		return err
	}
	if c.opts.OnMessage != nil {
		env := Envelope{Method: method}
		if c.isCancel(method) {
			env.CancelID = cancelledID(raw)
		}
		c.opts.OnMessage(Outbound, env)
	}
	return c.out.send(frame)
}
