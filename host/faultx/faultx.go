// Package faultx is a fault-injecting transport for the host's side of an extension's
// stdio: it changes how the host's bytes reach the extension (cut into pieces at every
// byte or at seeded places, with pauses) and how fast the host reads back (small reads,
// pauses, a full stop), and builds the malformed inputs the wire's framing rules speak
// about (CRLF line ends, a byte order mark, a frame cut off by EOF, garbage before the
// handshake). Every choice comes from a generator seeded by Plan.Seed, so a run that
// found a fault replays exactly.
//
// The package only moves bytes; what the extension must make of them is the
// conformance checks' business (host/conformance/checks_transport.go).
package faultx

import (
	"io"
	"math/rand/v2"
	"sync"
	"time"
)

// Plan says how a Writer cuts what it is given. The zero Plan writes every frame whole.
type Plan struct {
	// Seed seeds every random choice (cut places, pause lengths, garbage).
	Seed uint64
	// ByteFrames is how many frames, from the first, are written one byte per write:
	// the extension's reader meets every byte boundary of them (use it for the short
	// handshake frame; a 1 MiB frame byte by byte is a million system calls).
	ByteFrames int
	// MaxPiece cuts the frames after those into pieces of 1..MaxPiece bytes at seeded
	// places; 0 writes them whole.
	MaxPiece int
	// MaxPause pauses 0..MaxPause (seeded) before a seeded one in pauseOdds of the
	// pieces after a frame's first, so those arrive in separate reads (a pipe joins
	// pieces written faster than the other end reads); 0 never pauses.
	MaxPause time.Duration
}

// pauseOdds: one piece in pauseOdds is paused before (a sleep costs far more than its
// length on a loaded machine; a few pauses already separate the reads).
const pauseOdds = 8

// Rand returns the plan's generator: the same Seed, the same sequence.
func (p Plan) Rand() *rand.Rand { return rand.New(rand.NewPCG(p.Seed, p.Seed^0x9e3779b97f4a7c15)) }

// Writer writes each Write (one frame, or several the caller joined into one burst) to
// the underlying writer in pieces as the Plan says. Bytes are never changed, added or
// dropped: the concatenation of the pieces is exactly what Write was given.
type Writer struct {
	w    io.Writer
	plan Plan

	mu     sync.Mutex // one Write at a time, so frames are never interleaved
	rng    *rand.Rand
	frames int
	pieces int // pieces written so far, for reports
}

// NewWriter wraps w.
func NewWriter(w io.Writer, plan Plan) *Writer {
	return &Writer{w: w, plan: plan, rng: plan.Rand()}
}

// Write writes b in pieces, pausing between them as the Plan says. It returns the
// bytes written before the first error.
func (w *Writer) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	max, pause := w.plan.MaxPiece, w.plan.MaxPause
	if w.frames < w.plan.ByteFrames {
		max = 1
	}
	w.frames++
	written := 0
	for i, piece := range Cut(w.rng, b, max) {
		if i > 0 && pause > 0 && w.rng.IntN(pauseOdds) == 0 {
			time.Sleep(time.Duration(w.rng.Int64N(int64(pause) + 1)))
		}
		n, err := w.w.Write(piece)
		written += n
		w.pieces++
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// Pieces returns how many pieces (write calls) the Writer has made.
func (w *Writer) Pieces() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pieces
}

// Close closes the underlying writer when it is an io.Closer.
func (w *Writer) Close() error {
	if c, ok := w.w.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Cut splits b into consecutive non-empty pieces of at most max bytes, the cut places
// drawn from rng; max 1 cuts at every byte boundary, max <= 0 returns b whole.
// The pieces share b's memory and join back to exactly b.
func Cut(rng *rand.Rand, b []byte, max int) [][]byte {
	if len(b) == 0 {
		return nil
	}
	if max <= 0 {
		return [][]byte{b}
	}
	out := make([][]byte, 0, len(b)/max+1)
	for len(b) > 0 {
		n := 1
		if max > 1 {
			n = 1 + rng.IntN(min(max, len(b)))
		}
		out = append(out, b[:n:n])
		b = b[n:]
	}
	return out
}

// BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
var BOM = []byte{0xEF, 0xBB, 0xBF}

// CRLF returns the frame line (without a line end) ended by "\r\n" instead of "\n".
func CRLF(line []byte) []byte { return append(append([]byte(nil), line...), '\r', '\n') }

// WithBOM returns the frame line (without a line end) preceded by a byte order mark
// and ended by "\n".
func WithBOM(line []byte) []byte {
	out := append(append([]byte(nil), BOM...), line...)
	return append(out, '\n')
}

// Truncated returns a strict, non-empty prefix of the frame line (without a line end),
// cut at a seeded place, and never ending in a newline: what a host that died
// mid-write leaves behind. A line of one byte has no such prefix; it is returned whole.
func Truncated(rng *rand.Rand, line []byte) []byte {
	if len(line) < 2 {
		return append([]byte(nil), line...)
	}
	return append([]byte(nil), line[:1+rng.IntN(len(line)-1)]...)
}

// garbageLines are what really reaches an extension's stdin before a handshake by
// mistake: another protocol's framing, a shell's output, a terminal's keystrokes.
var garbageLines = []string{
	"Content-Length: 52\r\n",  // LSP/DAP framing written to a JSON-lines peer
	"GET / HTTP/1.1\r\n",      // an HTTP client pointed at the wrong port
	"hello\n",                 // someone typing at the process
	"\x1b[A\x1b[B\n",          // arrow keys from a terminal
	"{\"jsonrpc\":\"2.0\",\n", // a pretty-printed frame: its first line
}

// Garbage returns one line (ended by "\n") that is not a JSON-RPC frame and that every
// reader must refuse: a seeded pick of garbageLines, or seeded random printable bytes.
// The line's first byte is never JSON whitespace, so no reader can take it for a blank
// line.
func Garbage(rng *rand.Rand) []byte {
	i := rng.IntN(len(garbageLines) + 1)
	if i < len(garbageLines) {
		return []byte(garbageLines[i])
	}
	n := 8 + rng.IntN(56)
	out := make([]byte, 0, n+1)
	out = append(out, '#') // never whitespace, never the start of a JSON value
	for len(out) < n {
		out = append(out, byte('!'+rng.IntN('~'-'!'+1)))
	}
	return append(out, '\n')
}
