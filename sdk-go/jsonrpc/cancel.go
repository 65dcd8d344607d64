package jsonrpc

import "fmt"

// Cancellation lets either side withdraw a request it sent. JSON-RPC 2.0 defines no
// such message, so this transport has none of its own: the protocol above installs one
// with Options.Cancellation (octet's is "$/cancelRequest").
//
// With it, a Call whose context ends sends the notification {Method, params {"id"}}
// (unless SetCancellation turned that off), and the peer's notification of that method
// is acted on by the reader itself, ahead of the notification queue: a request still
// being served has its context cancelled and is answered CodeRequestCancelled whatever
// its handler returns; an unknown or already answered id is ignored. Without it, a
// cancelled Call still returns at once but the peer is not told, and a notification of
// any method is an ordinary one for Options.Handler.
type Cancellation struct {
	// Method is the notification's method; empty means no cancellation.
	Method string
}

// isCancel reports whether method is the installed cancellation (never, without one).
func (c *Conn) isCancel(method string) bool {
	return c.opts.Cancellation.Method != "" && method == c.opts.Cancellation.Method
}

// sendCancel tells the peer this side no longer waits for id's answer.
func (c *Conn) sendCancel(id ID) {
	method := c.opts.Cancellation.Method
	b := append(append(append(make([]byte, 0, 64), `{"jsonrpc":"2.0","method":`...), c.cancelMethodJSON...), `,"params":{"id":`...)
	b, _ = id.appendJSON(b)
	if c.opts.OnMessage != nil {
		c.opts.OnMessage(Outbound, Envelope{Method: method, CancelID: id})
	}
	_ = c.out.sendAsync(append(b, "}}"...)) // best effort: the caller has already stopped waiting
}

// cancelInbound handles the peer's cancellation; unknown or finished ids are ignored,
// as are malformed ones (logged).
func (c *Conn) cancelInbound(m *message) {
	id, err := cancelTarget(m.params)
	if err != nil {
		c.opts.Logf("jsonrpc: ignoring %s: %v", m.method, err)
		return
	}
	c.mu.Lock()
	s := c.inflight[id]
	if s != nil && s.answered {
		s = nil // the result already won
	}
	if s != nil {
		s.cancelled = true
	}
	c.mu.Unlock()
	if s != nil {
		s.cancel()
	}
}

// cancelTarget reads the id a cancellation names: its params must be exactly {id}.
func cancelTarget(params []byte) (ID, error) {
	if params == nil {
		return ID{}, fmt.Errorf("no params; want {id}")
	}
	fields, err := splitObject(params)
	if err != nil {
		return ID{}, err
	}
	if len(fields) != 1 || fields[0].key != "id" {
		return ID{}, fmt.Errorf("params %s must be exactly {id}", excerpt(params))
	}
	return parseID(fields[0].value)
}
