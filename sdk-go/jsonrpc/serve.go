package jsonrpc

import (
	"context"
	"fmt"
	"reflect"
	"runtime/debug"
)

// serving is one peer request being handled. It holds the Request the handler sees
// and is the value of the handler's context under requestIDKey, so admitting a request
// allocates these once, together.
type serving struct {
	req       Request
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled bool // the peer cancelled it (Cancellation) before the handler returned
	answered  bool // the answer is decided; a later cancel is ignored
}

type requestIDKey struct{}

// RequestIDFromContext returns the id of the request whose handler ctx belongs to
// (the ambient request id), and false outside a request handler.
func RequestIDFromContext(ctx context.Context) (ID, bool) {
	s, ok := ctx.Value(requestIDKey{}).(*serving)
	if !ok {
		return ID{}, false
	}
	return s.req.ID, true
}

// startServing admits a request, returning its serving for c.serve, or answers it at
// once (returning nil): overloaded over the in-flight limit, invalid_request for an id
// already in flight.
func (c *Conn) startServing(m *message) *serving {
	c.mu.Lock()
	if len(c.inflight) >= c.opts.MaxInFlight {
		c.mu.Unlock()
		c.replyAsync(appendError(nil, m.id, &Error{
			Code:    CodeOverloaded,
			Message: fmt.Sprintf("overloaded: %d requests already in flight", c.opts.MaxInFlight),
			Data:    mustJSON(map[string]int{"limit": c.opts.MaxInFlight}),
		}))
		return nil
	}
	if _, dup := c.inflight[m.id]; dup {
		c.mu.Unlock()
		c.replyAsync(appendError(nil, m.id, &Error{
			Code:    CodeInvalidRequest,
			Message: fmt.Sprintf("invalid request: id %s is already in flight", m.id),
		}))
		return nil
	}
	s := &serving{req: Request{ID: m.id, Method: m.method, Params: m.params}}
	s.ctx, s.cancel = context.WithCancel(context.WithValue(c.baseCtx, requestIDKey{}, s))
	c.inflight[m.id] = s
	c.mu.Unlock()
	s.req.Seq = c.seq.Add(1)
	return s
}

// WaitHandlers waits, once the connection is closed, until no request of the peer is
// being served and the notification handler has returned, or ctx ends. Close does not
// wait for handlers; an owner that must know they are done (before tearing down what
// they use) waits here.
func (c *Conn) WaitHandlers(ctx context.Context) error {
	if err := c.WaitServing(ctx, 0); err != nil {
		return err
	}
	select {
	case <-c.notes.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RequestsRead is how many requests the reader has started serving so far: the Seq
// of the last one (their handlers may still be starting).
func (c *Conn) RequestsRead() uint64 { return c.seq.Load() }

// serve runs the handler and sends exactly one answer. If the peer cancelled before
// the handler returned, the answer is request_cancelled whatever the handler said;
// once the handler has returned, its answer has won and a later cancel is ignored.
func (c *Conn) serve(s *serving) {
	req := &s.req
	result, err := c.call(s.ctx, req)
	c.mu.Lock()
	s.answered = true
	cancelled := s.cancelled
	c.mu.Unlock()
	s.cancel()
	// The request stays in flight until its answer is handed to the writer, so
	// WaitServing never reports it done before the answer can be flushed.
	defer c.finishServing(req.ID)
	switch {
	case cancelled:
		c.reply(appendError(nil, req.ID, &Error{Code: CodeRequestCancelled, Message: "request cancelled"}))
	case err != nil:
		c.reply(appendError(nil, req.ID, asWireError(err)))
	default:
		last, closing := result.(closeAfterReply)
		if closing {
			result = last.result
		}
		c.reply(c.resultFrame(req, result))
		if closing {
			c.Close()
		}
	}
}

// resultFrame encodes a result, replacing it with internal_error when it cannot be
// encoded or the frame would exceed the message limit (never written oversized).
func (c *Conn) resultFrame(req *Request, result any) []byte {
	frame, err := encodeResult(req.ID, result)
	if err != nil {
		return appendError(nil, req.ID, &Error{
			Code:    CodeInternalError,
			Message: fmt.Sprintf("result of %q could not be encoded: %v", req.Method, err),
		})
	}
	if limit := c.maxBytes(); len(frame) > limit {
		return appendError(nil, req.ID, &Error{
			Code: CodeInternalError,
			Message: fmt.Sprintf("result of %q is %d bytes, over the %d-byte message limit; not sent",
				req.Method, len(frame), limit),
			Data: mustJSON(map[string]int{"size": len(frame), "limit": limit}),
		})
	}
	return frame
}

// appender is a result that encodes itself, as the generated protocol types' AppendJSON
// does: it appends exactly the bytes json.Marshal would write for it (compact JSON) to dst.
// A handler returning one has its answer built in one buffer, without reflection and
// without the second pass that checks and compacts what a MarshalJSON method returns.
type appender interface {
	AppendJSON(dst []byte) ([]byte, error)
}

// encodeResult builds a success frame for result.
func encodeResult(id ID, result any) ([]byte, error) {
	if a, ok := result.(appender); ok && !isNilPointer(result) {
		frame := appendResultHead(make([]byte, 0, 256), id)
		frame, err := a.AppendJSON(frame)
		if err != nil {
			return nil, err
		}
		return append(frame, '}'), nil
	}
	raw, err := marshalValue(result)
	if err != nil {
		return nil, err
	}
	return appendResult(make([]byte, 0, len(raw)+48), id, raw), nil
}

// isNilPointer reports whether v is a nil pointer, which json.Marshal writes as null
// and an AppendJSON method cannot be called on.
func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// call runs the handler, turning a panic into internal_error (the stack goes to
// Logf, never to the wire).
func (c *Conn) call(ctx context.Context, req *Request) (result any, err error) {
	if c.opts.Handler == nil {
		return nil, methodNotFound(req.Method)
	}
	defer func() {
		if p := recover(); p != nil {
			c.opts.Logf("jsonrpc: handler for %q panicked: %v\n%s", req.Method, p, debug.Stack())
			result, err = nil, &Error{Code: CodeInternalError, Message: fmt.Sprintf("handler for %q panicked: %v", req.Method, p)}
		}
	}()
	return c.opts.Handler(ctx, req)
}

// closeAfterReply marks a result whose reply is the connection's last frame.
type closeAfterReply struct{ result any }

// ReplyThenClose wraps a handler's result so that the connection writes the reply
// and then closes (as Close does: queued frames are flushed first). An extension's
// shutdown handler uses it so the acknowledgement is on the wire before the process
// exits.
func ReplyThenClose(result any) any { return closeAfterReply{result} }

// finishServing forgets a request once its answer was handed to the writer and
// wakes WaitServing callers, so a waiter that then closes the connection flushes
// that answer.
func (c *Conn) finishServing(id ID) {
	c.mu.Lock()
	delete(c.inflight, id)
	if c.waiters > 0 {
		close(c.served)
		c.served = make(chan struct{})
	}
	c.mu.Unlock()
}

// WaitServing waits until at most n of the peer's requests are being served (their
// answers handed to the writer), or ctx ends. An extension's shutdown uses it to
// let drained handlers' answers reach the writer before acknowledging.
func (c *Conn) WaitServing(ctx context.Context, n int) error {
	for {
		c.mu.Lock()
		if len(c.inflight) <= n {
			c.mu.Unlock()
			return nil
		}
		ch := c.served
		c.waiters++
		c.mu.Unlock()
		var err error
		select {
		case <-ch:
		case <-ctx.Done():
			err = ctx.Err()
		}
		c.mu.Lock()
		c.waiters--
		c.mu.Unlock()
		if err != nil {
			return err
		}
	}
}
