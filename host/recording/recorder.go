// Package recording records every frame of an extension session into the
// state store, with secrets redacted, for inspect and replay.
package recording

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"time"

	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Redacted replaces a secret value in a recorded frame.
const Redacted = redact.Placeholder

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
	// Redactor redacts every frame Record stores: the host's one redactor,
	// which knows every secret value handed out (broker values, secret input
	// answers) and finds them in any escaping. Nil stores frames as given.
	Redactor *redact.Redactor
}

// Recorder is the core's OnFrame tap for one session (one process
// generation). It is safe for concurrent use by the reader and writer.
type Recorder struct {
	st        *store.Store
	sessionID string
	opts      Options

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
	return &Recorder{st: st, sessionID: sessionID, opts: opts}, nil
}

// OnFrame records one frame; its signature matches jsonrpc.Options.OnFrame
// from the host's side (Inbound = extension->host).
func (r *Recorder) OnFrame(dir jsonrpc.Direction, frame []byte) {
	r.Record(DirectionOf(dir), frame)
}

// DirectionOf is the stored label of a core direction (Inbound = ExtToHost).
func DirectionOf(dir jsonrpc.Direction) string {
	if dir == jsonrpc.Inbound {
		return ExtToHost
	}
	return HostToExt
}

// Record redacts one frame with Options.Redactor and records it in the given
// direction (HostToExt or ExtToHost).
func (r *Recorder) Record(direction string, frame []byte) {
	r.RecordClean(direction, r.opts.Redactor.Frame(frame))
}

// RecordClean records a frame the caller already redacted with the same
// redactor (the reference host redacts each frame once for trace and
// recording alike).
func (r *Recorder) RecordClean(direction string, frame []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	clean := append([]byte(nil), bytes.TrimRight(frame, "\n")...)
	r.seq++
	// Queued for the store's group commit, in seq order: a frame costs no transaction of
	// its own on the session's reader or writer.
	err := r.st.QueueFrames(r.sessionID, store.Frame{Seq: r.seq, AtMS: r.opts.Clock().UnixMilli(), Direction: direction, Frame: clean})
	if err != nil && r.err == nil {
		r.err = err
	}
}

// Err flushes the frames queued so far and returns the first storage error, if any
// (recording never blocks the session; the core reports this once at the end).
func (r *Recorder) Err() error {
	flushErr := r.st.Flush(context.Background())
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = flushErr
	}
	return r.err
}

// String names the recording (never its content).
func (r *Recorder) String() string { return "recording " + strings.TrimSpace(r.sessionID) }
