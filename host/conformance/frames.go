package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
)

// MaxMessageBytes is the wire's default line limit (docs/design/wire.md §8).
const MaxMessageBytes = 1 << 20

// RPCError is a JSON-RPC error object as it appeared on the wire.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the error with its code.
func (e *RPCError) Error() string { return fmt.Sprintf("error %d: %s", e.Code, e.Message) }

// Response is the answer to one request the host sent: a result or an error.
type Response struct {
	Result json.RawMessage
	Error  *RPCError
}

// String summarises the response for failure details.
func (r Response) String() string {
	if r.Error != nil {
		return r.Error.Error()
	}
	return "result " + excerpt(r.Result, 200)
}

// envelope is every field a JSON-RPC frame may carry; decoding keeps raw values so
// a check can tell an absent field from null.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// Frame is one line that crossed the wire, kept for failure reports.
type Frame struct {
	ToExtension bool          // true: host → extension
	At          time.Duration // since the session started
	Text        string        // the line, cut to a readable length
}

// String renders the frame as "+12ms → {...}".
func (f Frame) String() string {
	arrow := "←"
	if f.ToExtension {
		arrow = "→"
	}
	return fmt.Sprintf("%6s %s %s", f.At.Round(time.Millisecond), arrow, f.Text)
}

// frameLog keeps the first and the last frames of a session: the handshake explains
// the setup, the tail shows where it went wrong; everything between is counted.
type frameLog struct {
	mu      sync.Mutex
	head    []Frame
	tail    []Frame
	next    int // ring position in tail
	dropped int
}

const frameLogHead, frameLogTail = 6, 24

func (l *frameLog) add(f Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.head) < frameLogHead {
		l.head = append(l.head, f)
		return
	}
	if len(l.tail) < frameLogTail {
		l.tail = append(l.tail, f)
		return
	}
	l.tail[l.next] = f
	l.next = (l.next + 1) % frameLogTail
	l.dropped++
}

// lines returns the kept frames in order, with a marker where frames were left out.
func (l *frameLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, f := range l.head {
		out = append(out, f.String())
	}
	if l.dropped > 0 {
		out = append(out, fmt.Sprintf("       … %d frames not shown …", l.dropped))
	}
	for i := range l.tail {
		out = append(out, l.tail[(l.next+i)%len(l.tail)].String())
	}
	return out
}

// excerpt returns at most n bytes of b as one printable line.
func excerpt(b []byte, n int) string {
	b = bytes.TrimRight(b, "\n")
	s := string(b)
	if len(b) > n {
		s = fmt.Sprintf("%s… (%d bytes)", b[:n], len(b))
	}
	return strings.ReplaceAll(s, "\n", `\n`)
}
