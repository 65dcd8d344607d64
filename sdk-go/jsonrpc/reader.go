package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// read is the reader: it only decodes and dispatches, never waiting for a handler,
// so responses to a handler's own calls keep arriving while it runs. When a request
// is admitted, the reading goroutine hands the reading on to a fresh goroutine and
// serves the request itself ("leader/follower"): the request starts without waiting
// for a goroutine switch, and exactly one goroutine reads at any time.
func (c *Conn) read() {
	c.readFrom(newLineReader(c.r, c.maxBytes), 1)
}

func (c *Conn) readFrom(lr *lineReader, first int) {
	for lineNo := first; ; lineNo++ {
		line, err := lr.next()
		if err != nil {
			c.readFailed(err, lineNo)
			return
		}
		if c.opts.OnFrame != nil {
			c.opts.OnFrame(Inbound, line)
		}
		if !json.Valid(line) {
			c.protocolError(protocol.CodeParseError, line, "invalid JSON at line %d: %s", lineNo, excerpt(line))
			return
		}
		// The line aliases the read buffer; decoded values are handed to other
		// goroutines, so they need their own copy.
		line = append([]byte(nil), line...)
		m, err := decodeMessage(line)
		if err != nil {
			var env *envelopeError
			if errors.As(err, &env) && !env.id.IsZero() {
				c.replyAsync(appendError(nil, env.id, &Error{
					Code: protocol.CodeInvalidRequest, Message: "invalid request: " + env.reason,
					Data: mustJSON(map[string]string{"excerpt": excerptString(line)}),
				}))
				continue
			}
			c.protocolError(protocol.CodeInvalidRequest, line, "invalid frame at line %d: %v: %s", lineNo, err, excerpt(line))
			return
		}
		serve, keep := c.dispatch(m)
		if !keep {
			return
		}
		if serve != nil {
			go c.readFrom(lr, lineNo+1)
			serve()
			return
		}
	}
}

// readFailed turns the reader's final error into the connection's reason.
func (c *Conn) readFailed(err error, lineNo int) {
	var tooLong *errLineTooLong
	var partial *errPartialLine
	switch {
	case errors.Is(err, io.EOF):
		c.fail(fmt.Errorf("%w: %w", ErrTransport, ErrPeerClosed))
	case errors.As(err, &tooLong):
		c.protocolError(protocol.CodeInvalidRequest, tooLong.first, "line %d %v", lineNo, err)
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
func (c *Conn) dispatch(m *message) (serve func(), keep bool) {
	switch {
	case m.isResponse():
		if m.nullID {
			c.fail(transportError("protocol error: the peer could not read a frame: %s", m.err.Message))
			return nil, false
		}
		c.mu.Lock()
		ch := c.pending[m.id]
		delete(c.pending, m.id)
		c.mu.Unlock()
		if ch != nil {
			ch <- m // buffered: never blocks
		}
		// A response nobody waits for answers a call that was cancelled: dropped.
	case m.method == protocol.MethodCancelRequest:
		c.cancelInbound(m)
	case m.id.IsZero():
		c.notes.push(&Request{Method: m.method, Params: m.params})
	default:
		return c.startServing(m), true
	}
	return nil, true
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
