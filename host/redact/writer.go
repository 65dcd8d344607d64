package redact

import (
	"bytes"
	"io"
	"sync"
)

// maxPending bounds what a Writer holds back while it waits for the end of a
// line; a longer line is released in pieces as free text (a secret across
// the cut is still found: bytes that could start one are kept).
const maxPending = 256 << 10

// Writer redacts everything written through it. It releases whole lines: a
// line that is JSON as a frame (any escaping), anything else as free text;
// lines that a secret spans (one with a raw newline) are redacted together,
// and a line whose end could begin such a secret waits for the next one. The
// CLI wraps its stdout and stderr in one, so whatever it prints — results,
// errors, stderr tails, status lines — passes the redactor. It is safe for
// concurrent use; Flush releases what is held.
type Writer struct {
	r  *Redactor
	w  io.Writer
	mu sync.Mutex
	// pending is written but not yet released.
	pending []byte
}

// NewWriter returns a Writer that redacts with r and writes to w.
func NewWriter(r *Redactor, w io.Writer) *Writer { return &Writer{r: r, w: w} }

// Write implements io.Writer; it reports len(p) unless w fails.
func (x *Writer) Write(p []byte) (int, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.pending = append(x.pending, p...)
	if err := x.release(false); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush releases everything held back, redacted.
func (x *Writer) Flush() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.release(true)
}

func (x *Writer) release(final bool) error {
	m := x.r.load()
	if m == nil {
		_, err := x.w.Write(x.pending)
		x.pending = x.pending[:0]
		return err
	}
	text := x.pending
	if !final {
		text = text[:bytes.LastIndexByte(text, '\n')+1]
	}
	// Lines up to limit are complete; past it may begin a secret not yet seen.
	limit := m.safeCut(text, final)
	done := 0
	f, at := m.finder(text), 0
	for start := 0; start < limit; {
		var end int
		end, at = groupEnd(f, text, start, max(at, start))
		if end > limit {
			break
		}
		if err := x.emit(m, text[start:end]); err != nil {
			return err
		}
		start, done = end, end
	}
	if !final && done == 0 && len(x.pending) > maxPending {
		// One endless line: release it as free text, holding back a possible partial secret.
		done = m.safeCut(x.pending, false)
		out, _ := m.replace(x.pending[:done])
		if _, err := x.w.Write(out); err != nil {
			return err
		}
	}
	x.pending = append(x.pending[:0], x.pending[done:]...)
	return nil
}

// groupEnd is the end of the group of lines starting at start: through the
// first newline that no secret occurrence spans (or the end of text). at is
// where the search for occurrences resumes (it only moves forward); the new
// one is returned with the end.
func groupEnd(f *finder, text []byte, start, at int) (int, int) {
	end := start
	for {
		i := bytes.IndexByte(text[end:], '\n')
		if i < 0 {
			return len(text), at
		}
		nl := end + i
		spanned := false
		for {
			j, n := f.next(at)
			if j < 0 || j > nl {
				break
			}
			at = j + n
			if j+n > nl {
				spanned, end = true, j+n
				break
			}
		}
		if !spanned {
			return nl + 1, at
		}
	}
}

func (x *Writer) emit(m *matcher, group []byte) error {
	// The line end is not part of a JSON line, but it may be a secret's own last byte.
	body := bytes.TrimSuffix(group, []byte("\n"))
	out := m.frame(body, 0)
	unchanged := len(out) == len(body) && (len(out) == 0 || &out[0] == &body[0])
	full := append(out[:len(out):len(out)], group[len(body):]...)
	if m.contains(full) {
		full, _ = m.replace(full)
		unchanged = false
		if !bytes.HasSuffix(full, []byte("\n")) && len(body) < len(group) {
			full = append(full, '\n')
		}
	}
	if unchanged {
		full = group
	}
	_, err := x.w.Write(full)
	return err
}
