// Package recording records every frame of an extension session into the
// state store, with secrets redacted, for inspect and replay.
package recording

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Redacted replaces a secret value in a recorded frame.
const Redacted = "[redacted]"

// Direction labels as stored.
const (
	HostToExt = "host->ext"
	ExtToHost = "ext->host"
	// HostNote is not a frame of the wire but the host's own note about one (a result it
	// refused), kept in order with the frames so a recording explains what the caller saw.
	HostNote = "host"
)

// Options configure a Recorder.
type Options struct {
	// Clock stamps frames; nil is time.Now.
	Clock func() time.Time
	// KnownSecrets are values to scrub from any frame wherever they appear
	// (the broker's secrets): a second line of defence behind the
	// structural redaction of secret/get and secret input/request results.
	KnownSecrets []string
}

// Recorder is the core's OnFrame tap for one session (one process
// generation). It is safe for concurrent use by the reader and writer.
type Recorder struct {
	st        *store.Store
	sessionID string
	opts      Options
	red       *Redactor

	mu  sync.Mutex
	seq int64
	err error
}

// New starts a recording for sessionID.
func New(ctx context.Context, st *store.Store, sessionID, extension string, opts Options) (*Recorder, error) {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if err := st.StartRecording(ctx, sessionID, extension, opts.Clock().UnixMilli()); err != nil {
		return nil, err
	}
	return &Recorder{st: st, sessionID: sessionID, opts: opts, red: NewRedactor(opts.KnownSecrets)}, nil
}

// OnFrame records one frame; its signature matches jsonrpc.Options.OnFrame
// from the host's side (Inbound = extension->host).
func (r *Recorder) OnFrame(dir jsonrpc.Direction, frame []byte) {
	d := HostToExt
	if dir == jsonrpc.Inbound {
		d = ExtToHost
	}
	r.Record(d, frame)
}

// Record records one frame in the given direction (HostToExt or ExtToHost).
func (r *Recorder) Record(direction string, frame []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	clean := r.red.Redact(direction, frame)
	r.seq++
	err := r.st.AppendFrames(context.Background(), r.sessionID, []store.Frame{{Seq: r.seq, AtMS: r.opts.Clock().UnixMilli(), Direction: direction, Frame: clean}})
	if err != nil && r.err == nil {
		r.err = err
	}
}

// Err is the first storage error, if any (recording never blocks the
// session; the core reports this once at the end).
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// String names the recording (never its content).
func (r *Recorder) String() string { return "recording " + strings.TrimSpace(r.sessionID) }
