package reference

import (
	"context"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// RecordingID is the recording (store session id) that Options.Record fills for ext.
func (h *Host) RecordingID(ext string) string { return h.sessionID + "-" + ext }

// Recordings lists the recordings written so far, in the order their first frame came.
func (h *Host) Recordings() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.recorded...)
}

// record feeds the recorder of ext, creating it on its first frame. The recorder redacts
// secrets structurally and by known value. A recorder that cannot start is reported to
// Warnf and the frame is dropped, never the call.
func (h *Host) record(ext string, dir jsonrpc.Direction, frame []byte) {
	h.mu.Lock()
	r := h.recorders[ext]
	if r == nil {
		id := h.RecordingID(ext)
		var err error
		r, err = recording.New(context.Background(), h.store, id, ext, recording.Options{KnownSecrets: h.secrets})
		if err != nil {
			h.mu.Unlock()
			h.warnf("recording %s: %v", ext, err)
			return
		}
		h.recorders[ext] = r
		h.recorded = append(h.recorded, id)
	}
	h.mu.Unlock()
	r.OnFrame(dir, frame)
}

// traceFrame prints one frame: "ext[generation] -> frame" for host->extension, "<-" back.
func (h *Host) traceFrame(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
	if h.trace == nil {
		return
	}
	arrow := "->"
	if dir == jsonrpc.Inbound {
		arrow = "<-"
	}
	fmt.Fprintf(h.trace, "%s[%d] %s %s\n", ext, gen, arrow, h.redact(string(frame)))
}

// event receives every service event: a drop report goes to Warnf (the CLI's stderr) as
// well as to the trace, so lost notifications never pass without a word.
func (h *Host) event(ev services.Event) {
	if d, ok := ev.Payload.(services.Diagnostic); ok && d.Dropped > 0 {
		h.warnf("%s[%d]: %s", ev.Extension, ev.Generation, d.Message)
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
	fmt.Fprintf(h.trace, "event %s[%d] %s: %s\n", ev.Extension, ev.Generation, ev.Kind, h.redact(fmt.Sprintf("%+v", ev.Payload)))
}

// redact hides known secret values: a trace goes to a terminal or a CI log.
func (h *Host) redact(s string) string {
	for _, v := range h.secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, recording.Redacted)
		}
	}
	return s
}
