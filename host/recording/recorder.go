// Package recording records every frame of an extension session into the
// state store, with secrets redacted, for inspect and replay.
package recording

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	needles   [][]byte

	mu  sync.Mutex
	seq int64
	// secretReplies are ids of extension->host requests whose result is a
	// secret (secret/get, input/request with secret: true).
	secretReplies map[string]bool
	err           error
}

// New starts a recording for sessionID.
func New(ctx context.Context, st *store.Store, sessionID, extension string, opts Options) (*Recorder, error) {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if err := st.StartRecording(ctx, sessionID, extension, opts.Clock().UnixMilli()); err != nil {
		return nil, err
	}
	r := &Recorder{st: st, sessionID: sessionID, opts: opts, secretReplies: map[string]bool{}}
	for _, s := range opts.KnownSecrets {
		if s == "" {
			continue
		}
		// Match the value as it appears inside a JSON string.
		enc, _ := json.Marshal(s)
		r.needles = append(r.needles, enc[1:len(enc)-1])
	}
	return r, nil
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
	clean := r.redact(direction, bytes.TrimRight(frame, "\n"))
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

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// redact returns the frame to store. Callers hold r.mu.
func (r *Recorder) redact(direction string, frame []byte) []byte {
	var env envelope
	if json.Unmarshal(frame, &env) != nil {
		// Not JSON (a protocol error): store it scrubbed of known values.
		return r.scrub(append([]byte(nil), frame...))
	}
	idKey := direction + string(env.ID)
	switch {
	case env.Method != "" && direction == ExtToHost && len(env.ID) > 0 && string(env.ID) != "null":
		if env.Method == "secret/get" || (env.Method == "input/request" && isSecretInput(env.Params)) {
			r.secretReplies[HostToExt+string(env.ID)] = true
		}
	case env.Method == "" && r.secretReplies[idKey]:
		delete(r.secretReplies, idKey)
		if len(env.Result) > 0 {
			frame = redactResultValue(frame)
		}
	}
	return r.scrub(append([]byte(nil), frame...))
}

func isSecretInput(params json.RawMessage) bool {
	var p struct {
		Secret bool `json:"secret"`
	}
	return json.Unmarshal(params, &p) == nil && p.Secret
}

// redactResultValue replaces result.value (a string) with Redacted,
// re-encoding the frame; a null value (cancelled input) is kept.
func redactResultValue(frame []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(frame, &m) != nil {
		return frame
	}
	var res map[string]json.RawMessage
	if json.Unmarshal(m["result"], &res) != nil {
		return frame
	}
	if v, ok := res["value"]; ok && string(v) != "null" {
		res["value"] = json.RawMessage(fmt.Sprintf("%q", Redacted))
	}
	m["result"], _ = json.Marshal(res)
	out, err := json.Marshal(m)
	if err != nil {
		return frame
	}
	return out
}

func (r *Recorder) scrub(frame []byte) []byte {
	for _, n := range r.needles {
		if bytes.Contains(frame, n) {
			frame = bytes.ReplaceAll(frame, n, []byte(Redacted))
		}
	}
	return frame
}

// String names the recording (never its content).
func (r *Recorder) String() string { return "recording " + strings.TrimSpace(r.sessionID) }
