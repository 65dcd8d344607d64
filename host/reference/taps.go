package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// RecordingID is the recording (store session id) that Options.Record fills for ext. The
// session id is durable, so the run part keeps two runs of one session apart.
func (h *Host) RecordingID(ext string) string { return h.sessionID + "-" + h.run + "-" + ext }

// Recordings lists the recordings written so far, in the order their first frame came.
func (h *Host) Recordings() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.recorded...)
}

// record feeds the recorder of ext, creating it on its first frame, with a frame OnFrame
// already redacted. A recorder that cannot start is reported to Warnf and the frame is
// dropped, never the call.
func (h *Host) record(ext string, dir jsonrpc.Direction, frame []byte) {
	h.mu.Lock()
	r := h.recorders[ext]
	if r == nil {
		id := h.RecordingID(ext)
		var err error
		r, err = recording.New(context.Background(), h.store, id, ext, recording.Options{Redactor: h.red})
		if err != nil {
			h.mu.Unlock()
			h.warnf("recording %s: %v", ext, err)
			return
		}
		h.recorders[ext] = r
		h.recorded = append(h.recorded, id)
	}
	h.mu.Unlock()
	r.RecordClean(recording.DirectionOf(dir), frame)
}

// traceFrame prints one (redacted) frame as a TraceLine.
func (h *Host) traceFrame(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
	if h.trace == nil {
		return
	}
	h.writeTrace(h.tracer.frameLine(ext, gen, dir, frame))
}

// writeTrace prints one TraceLine; each is a single write, whole on the synchronised writer.
func (h *Host) writeTrace(l TraceLine) {
	// Not HTML-escaped: "->" stays readable, and a frame's text is shown as it was sent.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(l) != nil {
		return
	}
	_, _ = h.trace.Write(b.Bytes())
}

// event receives every service event: a drop report goes to Warnf (the CLI's stderr) as
// well as to the trace, so lost notifications never pass without a word.
func (h *Host) event(ev services.Event) {
	if d, ok := ev.Payload.(services.Diagnostic); ok && d.Dropped > 0 {
		h.warnf("%s[%d]: %s", ev.Extension, ev.Generation, d.Message)
	}
	if ev.Kind == services.EventProgress && h.deliveries != nil {
		h.deliveries.progress(ev)
	}
	h.traceEvent(ev)
	if h.events != nil {
		h.events.Event(ev)
	}
}

// traceEvent prints one service event (notification, status, diagnostic, ...).
func (h *Host) traceEvent(ev services.Event) {
	if h.trace == nil {
		return
	}
	// The router redacted the payload already; the trace redacts again, since it is the one
	// place where an event leaves the host as text.
	b, _ := json.Marshal(ev.Payload)
	h.writeTrace(h.tracer.eventLine(ev, h.red.Frame(b)))
}

// noteRejected puts a result or arguments the host refused into the trace and, when
// recording, into ext's recording as a host note (direction recording.HostNote, a frame
// {"method":"host/rejected","params":{...}}), so `inspect` shows why the caller got an
// error although the extension answered.
func (h *Host) noteRejected(ext string, gen int64, err error, record bool) {
	if h.trace != nil {
		h.writeTrace(TraceLine{Time: h.tracer.stamp(), Direction: recording.HostNote, Extension: ext, Generation: gen,
			Kind: "rejected", Message: h.red.Text(err.Error())})
	}
	if !record {
		return
	}
	params := map[string]any{"generation": gen, "message": err.Error()}
	var re *host.ResultError
	var ae *host.ArgumentsError
	switch {
	case errors.As(err, &re):
		params["kind"], params["method"], params["name"], params["schema"], params["pointer"], params["rule"] = "result", re.Method, re.Name, re.Schema, re.Pointer, re.Rule
	case errors.As(err, &ae):
		params["kind"], params["method"], params["name"], params["schema"], params["pointer"], params["rule"] = "arguments", protocol.MethodToolCall, ae.Tool, "parameters", ae.Pointer, ae.Keyword
	}
	frame, _ := json.Marshal(map[string]any{"method": "host/rejected", "params": params})
	h.mu.Lock()
	r := h.recorders[ext]
	h.mu.Unlock()
	if r != nil { // the refused answer was recorded, so the recorder exists
		r.Record(recording.HostNote, frame)
	}
}
