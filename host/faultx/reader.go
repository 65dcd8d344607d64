package faultx

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"time"
)

// ReadPlan says how a Reader reads. The zero ReadPlan reads as the caller asks.
type ReadPlan struct {
	// Seed seeds the read sizes and pauses.
	Seed uint64
	// MaxRead bounds each read to 1..MaxRead bytes (seeded); 0 does not bound it.
	MaxRead int
	// MaxPause pauses 0..MaxPause (seeded) before each read; 0 never pauses.
	MaxPause time.Duration
}

// Reader is the host reading the extension's output slowly: small reads, pauses, and a
// full stop (Stop, Resume) while the extension keeps writing, so its writes meet a full
// pipe (back-pressure). It counts what it read and the carriage returns in it (the
// SDKs end their lines with "\n" alone).
type Reader struct {
	r    io.Reader
	plan ReadPlan
	rng  *rand.Rand // used by the one reading goroutine only

	mu      sync.Mutex
	stopped bool
	resume  chan struct{} // closed by Resume
	hangup  bool          // after the next newline, reads end (HangUp)
	ended   bool
	read    int64
	crs     int64
}

// NewReader wraps r.
func NewReader(r io.Reader, plan ReadPlan) *Reader {
	return &Reader{r: r, plan: plan, rng: rand.New(rand.NewPCG(plan.Seed, plan.Seed^0x5851f42d4c957f2d))}
}

// Read reads at most the plan's bound, after the plan's pause, waiting first while the
// Reader is stopped.
func (r *Reader) Read(p []byte) (int, error) {
	r.mu.Lock()
	for r.stopped {
		ch := r.resume
		r.mu.Unlock()
		<-ch
		r.mu.Lock()
	}
	if r.ended {
		r.mu.Unlock()
		return 0, io.EOF
	}
	hangup := r.hangup
	r.mu.Unlock()
	if hangup {
		return r.readToLineEnd(p)
	}
	if r.plan.MaxPause > 0 {
		time.Sleep(time.Duration(r.rng.Int64N(int64(r.plan.MaxPause) + 1)))
	}
	if r.plan.MaxRead > 0 && len(p) > 0 {
		p = p[:1+r.rng.IntN(min(r.plan.MaxRead, len(p)))]
	}
	n, err := r.r.Read(p)
	r.count(p[:n])
	return n, err
}

// readToLineEnd reads up to the end of the line under way, byte by byte, and ends.
func (r *Reader) readToLineEnd(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := r.r.Read(p[n : n+1])
		n += k
		if err != nil {
			r.count(p[:n])
			return n, err
		}
		if k == 1 && p[n-1] == '\n' {
			r.mu.Lock()
			r.ended = true
			r.mu.Unlock()
			break
		}
	}
	r.count(p[:n])
	return n, nil
}

func (r *Reader) count(b []byte) {
	r.mu.Lock()
	r.read += int64(len(b))
	r.crs += int64(bytes.Count(b, []byte{'\r'}))
	r.mu.Unlock()
}

// HangUp makes the Reader end (io.EOF) at the end of the line under way, so the
// reader above it sees whole frames only, and lets a stopped Reader go on to get there:
// the host giving up on a backlog it will not read.
func (r *Reader) HangUp() {
	r.mu.Lock()
	r.hangup = true
	r.mu.Unlock()
	r.Resume()
}

// Stop makes reads wait until Resume: the extension's output piles up in the pipe and
// then its writes block. A read already waiting for input completes first.
func (r *Reader) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.stopped {
		r.stopped, r.resume = true, make(chan struct{})
	}
}

// Resume lets reads go on.
func (r *Reader) Resume() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		r.stopped = false
		close(r.resume)
	}
}

// Counts returns the bytes read so far and the carriage returns among them.
func (r *Reader) Counts() (read, carriageReturns int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.read, r.crs
}
