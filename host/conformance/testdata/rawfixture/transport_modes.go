package main

import (
	"bytes"
	"io"
	"os"
	"sync"
)

// Modes that break a framing rule the fault-injecting transport probes
// (host/conformance/checks_transport.go).
const (
	modeFramePerRead   = "frame-per-read"       // takes every read(2) for a whole line, as a naive reader does
	modeCRLFRefused    = "crlf-refused"         // refuses a line ended by \r\n
	modeBOMAccepted    = "bom-accepted"         // drops a byte order mark before a frame
	modeGarbageSkipped = "garbage-skipped"      // skips a line that is not JSON instead of closing
	modePartialServed  = "partial-frame-served" // serves the bytes after the last newline at EOF, exits 0
	modeUnboundedQueue = "unbounded-writer"     // queues frames without bound while the host is not reading
	modeBlankSkipped   = "blank-line-skipped"   // skips an empty line instead of refusing it
)

// stdinReader is the protocol input as the mode reads it.
func stdinReader() io.Reader {
	if mode == modeFramePerRead {
		return &readPerLine{r: os.Stdin}
	}
	return os.Stdin
}

// readPerLine ends every read with a newline, so a frame cut across reads becomes
// several (invalid) lines.
type readPerLine struct {
	r    io.Reader
	held []byte
}

func (r *readPerLine) Read(p []byte) (int, error) {
	if len(r.held) == 0 {
		buf := make([]byte, len(p))
		n, err := r.r.Read(buf)
		if n == 0 {
			return 0, err
		}
		r.held = buf[:n]
		if buf[n-1] != '\n' {
			r.held = append(r.held, '\n')
		}
	}
	n := copy(p, r.held)
	r.held = r.held[n:]
	return n, nil
}

// framingMode applies the framing modes to one line before it is decoded.
func framingMode(line []byte) []byte {
	switch {
	case mode == modeCRLFRefused && bytes.HasSuffix(line, []byte("\r")):
		fatal("protocol error: a carriage return before the newline")
	case mode == modeBOMAccepted:
		return bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	return line
}

// queuedOut is the unbounded-writer mode's output: frames go to a queue that a
// goroutine drains, so a sender never waits however far behind the host reads.
type queuedOut struct {
	out   io.Writer
	mu    sync.Mutex
	queue [][]byte
	wake  chan struct{}
}

func newQueuedOut(out io.Writer) *queuedOut {
	q := &queuedOut{out: out, wake: make(chan struct{}, 1)}
	go q.loop()
	return q
}

func (q *queuedOut) Write(b []byte) (int, error) {
	q.mu.Lock()
	q.queue = append(q.queue, append([]byte(nil), b...))
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return len(b), nil
}

func (q *queuedOut) loop() {
	for range q.wake {
		for {
			q.mu.Lock()
			batch := q.queue
			q.queue = nil
			q.mu.Unlock()
			if len(batch) == 0 {
				break
			}
			for _, b := range batch {
				if _, err := q.out.Write(b); err != nil {
					return
				}
			}
		}
	}
}
