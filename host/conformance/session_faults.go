package conformance

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"time"

	"github.com/octet-kit/octet/host/faultx"
)

// Faults puts a session's stdio through the fault-injecting transport (host/faultx):
// what the host writes is cut as Write says, what it reads is read as Read says.
type Faults struct {
	Write faultx.Plan
	Read  faultx.ReadPlan
}

// faultTaps are the session's ends of the fault-injecting transport.
type faultTaps struct {
	w *faultx.Writer
	r *faultx.Reader
}

// withFaults wraps the session's stdin and the process's stdout when f is set and
// returns what the session's reader reads.
func (s *Session) withFaults(f *Faults, stdout io.ReadCloser) io.ReadCloser {
	if f == nil {
		return stdout
	}
	s.faults = &faultTaps{w: faultx.NewWriter(s.stdin, f.Write), r: faultx.NewReader(stdout, f.Read)}
	s.stdin = s.faults.w
	return struct {
		io.Reader
		io.Closer
	}{s.faults.r, stdout}
}

// StopReading stops the host reading the extension's stdout (its writes then meet a
// full pipe and block); ResumeReading lets it go on. Both need StartOptions.Faults.
func (s *Session) StopReading() { s.faults.r.Stop() }

// ResumeReading undoes StopReading.
func (s *Session) ResumeReading() { s.faults.r.Resume() }

// ReadCounts returns the bytes read from the extension's stdout and the carriage
// returns among them (StartOptions.Faults only).
func (s *Session) ReadCounts() (read, carriageReturns int64) { return s.faults.r.Counts() }

// WriteRaw writes b to the extension's stdin exactly as given, no newline added: for
// the input the framing checks malform (a BOM, CRLF, garbage, a frame cut short).
func (s *Session) WriteRaw(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.frames.add(Frame{ToExtension: true, At: time.Since(s.start), Text: fmt.Sprintf("(raw) %q", excerpt(b, 400))})
	if _, err := s.stdin.Write(b); err != nil {
		return fmt.Errorf("%w: write to the extension's stdin: %v", ErrTransport, err)
	}
	return nil
}

// SendRaw writes the bytes build makes for a fresh request id, exactly (line end
// included or not, as build chooses), and awaits the answer like Send.
func (s *Session) SendRaw(build func(id int64) []byte) (int64, <-chan Response, error) {
	ch := make(chan Response, 1)
	s.mu.Lock()
	if s.readerErr != nil {
		s.mu.Unlock()
		return 0, nil, fmt.Errorf("%w: the extension's stdout is closed (%v)", ErrTransport, s.readerErr)
	}
	s.nextID++
	id := s.nextID
	s.pending[id] = ch
	s.mu.Unlock()
	if err := s.WriteRaw(build(id)); err != nil {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		return 0, nil, err
	}
	return id, ch, nil
}

// Answered reports whether the extension answered request id (a response arrived).
func (s *Session) Answered(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.answered[id]
}

// faultSeed is the seed one check's transport uses: Options.FaultSeed mixed with the
// check's name, so checks draw different cuts; the check's detail notes Options.FaultSeed
// (certify --fault-seed), which replays it.
func (t *T) faultSeed(check string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(check))
	t.Note("fault seed %d", t.opts.FaultSeed)
	return h.Sum64() ^ t.opts.FaultSeed
}

// openFaulty starts a fresh process with its stdio through the fault-injecting
// transport and completes the handshake (written as f says), as Open does.
func (t *T) openFaulty(o InitOptions, f Faults) (*Session, *InitResult, error) {
	s, err := t.Start(StartOptions{APIVersion: o.APIVersion, Faults: &f})
	if err != nil {
		return nil, nil, err
	}
	s2, r, err := t.handshake(s, o)
	return s2, r, err
}

// handshake sends initialize on a started session and judges the answer as Open does.
func (t *T) handshake(s *Session, o InitOptions) (*Session, *InitResult, error) {
	params, resp, err := t.Initialize(s, o)
	if err != nil {
		return nil, nil, fmt.Errorf("initialize: %w", err)
	}
	if resp.Error != nil {
		return nil, nil, fail("initialize to succeed", "%s", resp.Error)
	}
	declared := o.Manifest
	if declared == nil {
		declared = t.Ext.Manifest.JSON
	}
	r, probs := validateInit(params, resp.Result, t.Ext, declared)
	if len(probs) > 0 {
		return nil, nil, fail("an initialize result the host accepts", "%v", probs)
	}
	return s, r, nil
}

// SendBurst writes the requests builds make, each for a fresh id, joined into one write
// (so the extension reads many frames at once, cut wherever the transport cuts), and
// returns their ids and answer channels in order.
func (s *Session) SendBurst(builds []func(id int64) []byte) ([]int64, []<-chan Response, error) {
	ids := make([]int64, len(builds))
	chans := make([]<-chan Response, len(builds))
	var burst []byte
	s.mu.Lock()
	if s.readerErr != nil {
		s.mu.Unlock()
		return nil, nil, fmt.Errorf("%w: the extension's stdout is closed (%v)", ErrTransport, s.readerErr)
	}
	for i, build := range builds {
		s.nextID++
		ch := make(chan Response, 1)
		ids[i], chans[i] = s.nextID, ch
		s.pending[s.nextID] = ch
		burst = append(burst, build(s.nextID)...)
	}
	s.mu.Unlock()
	if err := s.WriteRaw(burst); err != nil {
		return nil, nil, err
	}
	return ids, chans, nil
}

// seeded runs a check that draws from the fault seed and names the seed in its failure,
// so the report alone is enough to replay it (certify --fault-seed).
func seeded(run func(*T) error) func(*T) error {
	return func(t *T) error {
		err := run(t)
		if err == nil {
			return nil
		}
		if _, ok := isSkip(err); ok {
			return err
		}
		var f *Failure
		if errors.As(err, &f) {
			return &Failure{Expected: f.Expected, Got: fmt.Sprintf("%s (fault seed %d)", f.Got, t.opts.FaultSeed)}
		}
		return fmt.Errorf("%w (fault seed %d)", err, t.opts.FaultSeed)
	}
}
