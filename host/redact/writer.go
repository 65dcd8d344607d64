package redact

import (
	"bytes"
	"io"
	"sync"
)

// maxPending bounds what a Writer holds back while it waits for the end of a
// line; a longer line is redacted and written in pieces (a secret straddling
// the cut is still found: the last bytes that could start one are kept).
const maxPending = 256 << 10

// Writer redacts everything written through it, one line at a time: a
// JSON line as a frame (any escaping), anything else as free text. The CLI
// wraps its stdout and stderr in one, so whatever it prints — results,
// errors, stderr tails, status lines — passes the redactor. It is safe for
// concurrent use; Flush writes a trailing partial line.
type Writer struct {
	r  *Redactor
	w  io.Writer
	mu sync.Mutex
	// pending is the start of the current line.
	pending []byte
}

// NewWriter returns a Writer that redacts with r and writes to w.
func NewWriter(r *Redactor, w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Write implements io.Writer; it reports len(p) unless w fails.
func (x *Writer) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.pending = append(x.pending, p...)
	for {
		i := bytes.IndexByte(x.pending, '\n')
		if i < 0 {
			break
		}
		if err := x.emit(x.pending[:i+1]); err != nil {
			return 0, err
		}
		x.pending = x.pending[i+1:]
	}
	if len(x.pending) > maxPending {
		keep := x.holdBack()
		if err := x.emit(x.pending[:len(x.pending)-keep]); err != nil {
			return 0, err
		}
		x.pending = x.pending[len(x.pending)-keep:]
	}
	if len(x.pending) == 0 {
		x.pending = nil
	}
	return len(p), nil
}

// holdBack is how many trailing bytes of an over-long line to keep: enough
// that a secret starting there is matched once the rest arrives.
func (x *Writer) holdBack() int {
	m := x.r.load()
	if m == nil {
		return 0
	}
	return min(len(x.pending), m.maxLen-1)
}

func (x *Writer) emit(line []byte) error {
	body := bytes.TrimRight(line, "\n")
	out := x.r.Frame(body)
	if len(out) == len(body) && (len(out) == 0 || &out[0] == &body[0]) {
		_, err := x.w.Write(line)
		return err
	}
	_, err := x.w.Write(append(out, line[len(body):]...))
	return err
}

// Flush writes the partial line held back, redacted.
func (x *Writer) Flush() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pending) == 0 {
		return nil
	}
	err := x.emit(x.pending)
	x.pending = nil
	return err
}
