package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// read is the reader: it only decodes and dispatches, never waiting for a handler,
// so responses to a handler's own calls keep arriving while it runs. When a request
// is admitted, the reading goroutine hands the reading on to another server
// goroutine and serves the request itself ("leader/follower"): the request starts
// without waiting for a goroutine switch, and exactly one goroutine reads at any
// time. Server goroutines are long-lived: after serving, one waits (idle) to be
// handed the reading again, so a request runs on a stack that has already grown
// through the dispatch chain instead of a fresh goroutine growing and copying its
// stack every time.
func (c *Conn) read() {
	c.server(readTurn{lr: newLineReader(c.r, c.maxBytes), lineNo: 1})
}

// readTurn is the right to read, passed between server goroutines.
type readTurn struct {
	lr     *lineReader
	lineNo int
}

// maxIdleServers bounds the server goroutines kept waiting for the next turn; a
// burst beyond it leaves as many behind as a steady load needs, the rest exit.
const maxIdleServers = 16

// server reads until a request is admitted, serves it, then waits to read again.
func (c *Conn) server(turn readTurn) {
	for {
		serve := c.readFrom(turn)
		if serve == nil {
			return
		}
		c.serve(serve)
		var ok bool
		if turn, ok = c.awaitTurn(); !ok {
			return
		}
	}
}

// awaitTurn parks an idle server until it is handed the reading, and reports false
// when it should exit instead (enough idle servers, or the connection stopped).
func (c *Conn) awaitTurn() (readTurn, bool) {
	if c.idleServers.Add(1) > maxIdleServers {
		c.idleServers.Add(-1)
		return readTurn{}, false
	}
	defer c.idleServers.Add(-1)
	select {
	case turn := <-c.turns:
		return turn, true
	case <-c.done:
		return readTurn{}, false
	}
}

// passTurn hands the reading to an idle server, or to a new one when none waits.
func (c *Conn) passTurn(turn readTurn) {
	select {
	case c.turns <- turn:
	default:
		go c.server(turn)
	}
}

// readFrom reads frames until one is an admitted request, hands the reading on and
// returns that request's serving; nil when reading has ended.
func (c *Conn) readFrom(turn readTurn) (serve *serving) {
	defer func() {
		if serve == nil {
			close(c.readEnded) // exactly one goroutine reads, and it ends here once
		}
	}()
	lr := turn.lr
	for lineNo := turn.lineNo; ; lineNo++ {
		line, err := lr.next()
		if err != nil {
			c.readFailed(err, lineNo)
			return nil
		}
		if c.opts.OnFrame != nil {
			c.opts.OnFrame(Inbound, line)
		}
		if !utf8.Valid(line) {
			// Decoding would replace the bytes with U+FFFD and hand on text the peer
			// never sent; the Python and TypeScript SDKs refuse such a frame alike.
			c.protocolError(CodeParseError, nil, "frame at line %d is not valid UTF-8 (byte %d)", lineNo, invalidUTF8At(line))
			return nil
		}
		if at := strictjson.NestingOffset(line); at >= 0 {
			if !c.refuseNesting(line, at, lineNo) {
				return nil
			}
			continue
		}
		if !json.Valid(line) {
			c.protocolError(CodeParseError, line, "invalid JSON at line %d: %s", lineNo, excerpt(line))
			return nil
		}
		// The line aliases the read buffer; decoded values are handed to other
		// goroutines, so they need their own copy.
		line = append([]byte(nil), line...)
		m, err := decodeMessage(line)
		if err != nil {
			var env *envelopeError
			if errors.As(err, &env) && !env.id.IsZero() {
				c.replyAsync(appendError(nil, env.id, &Error{
					Code: CodeInvalidRequest, Message: "invalid request: " + env.reason,
					Data: mustJSON(map[string]string{"excerpt": excerptString(line)}),
				}))
				continue
			}
			c.protocolError(CodeInvalidRequest, line, "invalid frame at line %d: %v: %s", lineNo, err, excerpt(line))
			return nil
		}
		if c.opts.OnMessage != nil {
			env := Envelope{ID: m.id, Method: m.method}
			if c.isCancel(m.method) {
				env.CancelID = cancelledID(m.params)
			}
			c.opts.OnMessage(Inbound, env)
		}
		serve, keep := c.dispatch(m)
		if !keep {
			return nil
		}
		if serve != nil {
			c.passTurn(readTurn{lr: lr, lineNo: lineNo + 1})
			return serve
		}
	}
}

// invalidUTF8At is the offset of the first byte that is not part of valid UTF-8.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// readFailed turns the reader's final error into the connection's reason.
func (c *Conn) readFailed(err error, lineNo int) {
	var tooLong *errLineTooLong
	var partial *errPartialLine
	switch {
	case errors.Is(err, io.EOF):
		c.fail(fmt.Errorf("%w: %w", ErrTransport, ErrPeerClosed))
	case errors.As(err, &tooLong):
		c.protocolError(CodeInvalidRequest, tooLong.first, "line %d %v", lineNo, err)
	case errors.As(err, &partial):
		c.fail(transportError("%v", err))
	default:
		c.fail(transportError("read failed: %v", err))
	}
}

// protocolError answers a final error frame with a null id (best effort: the peer
// learns why), then closes the connection for reading with the reason.
func (c *Conn) protocolError(code int64, line []byte, format string, args ...any) {
	reason := fmt.Sprintf(format, args...)
	_ = c.out.sendAsync(appendError(nil, ID{}, &Error{
		Code: code, Message: "protocol error: " + reason,
		Data: mustJSON(map[string]string{"excerpt": excerptString(line)}),
	}))
	c.fail(transportError("protocol error: %s", reason))
}

// dispatch routes one decoded frame. It returns the serving of an admitted request
// (for the caller to run after handing the reading on), and false when the reader
// must stop.
func (c *Conn) dispatch(m *message) (serve *serving, keep bool) {
	switch {
	case m.isResponse():
		if m.nullID {
			c.fail(transportError("protocol error: the peer could not read a frame: %s", m.err.Message))
			return nil, false
		}
		if !c.issued(m.id) {
			// Not a late answer: this side never sent the id, so the peer is confused
			// about what it is answering; every call it owes an answer is suspect.
			c.protocolError(CodeInvalidRequest, nil, "response to id %s, which this side never issued", m.id)
			return nil, false
		}
		if c.opts.OrderedDelivery {
			c.notes.push(queued{resp: m}) // behind the notifications read before it
		} else {
			c.deliver(m)
		}
	case c.isCancel(m.method):
		c.cancelInbound(m)
	case m.id.IsZero():
		c.notes.push(queued{req: &Request{Method: m.method, Params: m.params}, size: len(m.params) + len(m.method)})
	default:
		return c.startServing(m), true
	}
	return nil, true
}

// deliver hands a response to the Call waiting for it and tells Options.OnResponse. A
// response nobody waits for answers a call that was cancelled: dropped.
func (c *Conn) deliver(m *message) {
	c.mu.Lock()
	ch := c.pending[m.id]
	delete(c.pending, m.id)
	c.mu.Unlock()
	if c.opts.OnResponse != nil {
		c.opts.OnResponse(m.id)
	}
	if ch != nil {
		ch <- m // buffered: never blocks
	}
}

// reply queues a response frame; a closed writer drops it (nobody can read it).
func (c *Conn) reply(frame []byte) { _ = c.out.send(frame) }

// replyAsync queues a response from the reader, which must never wait on the peer.
func (c *Conn) replyAsync(frame []byte) { _ = c.out.sendAsync(frame) }

func mustJSON(v any) json.RawMessage {
	raw, _ := json.Marshal(v)
	return raw
}

// excerptString is the first bytes of a bad frame for an error's data.excerpt.
func excerptString(line []byte) string {
	if len(line) > excerptBytes {
		line = line[:excerptBytes]
	}
	return string(line)
}
