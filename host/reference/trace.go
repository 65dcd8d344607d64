package reference

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TraceLine is one line of Options.Trace: a JSON object per frame, service event or host
// note, so a trace can be read by people and by jq alike (docs/host.md "Tracing").
// Everything in it has passed the host's redactor.
type TraceLine struct {
	// Time is when the host saw the frame or emitted the event (UTC, RFC 3339, ms).
	Time string `json:"time"`
	// Direction is "host->ext" or "ext->host" for a frame, "event" for a service event and
	// "host" for a host note (a result or arguments the host refused).
	Direction  string `json:"direction"`
	Extension  string `json:"extension"`
	Generation int64  `json:"generation"`
	// Kind is request, notification, response, error or invalid for a frame; the event kind
	// (progress, notification, presentation, confirmation, ...) for an event; rejected for
	// a host note.
	Kind string `json:"kind"`
	// Method is the frame's method; for a response, the method of the request it answers
	// (when that request was traced).
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	// Frame is the frame as JSON; Text holds a frame that is not JSON, as a string.
	Frame   json.RawMessage `json:"frame,omitempty"`
	Text    string          `json:"text,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
	Message string          `json:"message,omitempty"`
}

// tracer writes TraceLines. It pairs responses with the requests they answer per
// extension, generation and sender, so a response line names its method.
type tracer struct {
	mu   sync.Mutex
	open map[string]string // ext/gen/request direction/id -> method
	now  func() time.Time
}

func newTracer() *tracer { return &tracer{open: map[string]string{}, now: time.Now} }

func (t *tracer) stamp() string { return t.now().UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// frameLine describes one (already redacted) frame.
func (t *tracer) frameLine(ext string, gen int64, dir jsonrpc.Direction, frame []byte) TraceLine {
	l := TraceLine{Time: t.stamp(), Direction: recording.DirectionOf(dir), Extension: ext, Generation: gen}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  json.RawMessage `json:"error"`
	}
	if !json.Valid(frame) || json.Unmarshal(frame, &env) != nil {
		l.Kind, l.Text = "invalid", string(frame)
		return l
	}
	l.Frame = json.RawMessage(frame)
	hasID := len(env.ID) > 0 && string(env.ID) != "null"
	if hasID {
		l.ID = env.ID
	}
	key := func(reqDir string) string {
		return ext + "\x00" + itoa64(gen) + "\x00" + reqDir + "\x00" + string(env.ID)
	}
	switch {
	case env.Method != "" && hasID:
		l.Kind, l.Method = "request", env.Method
		t.mu.Lock()
		t.open[key(l.Direction)] = env.Method
		t.mu.Unlock()
	case env.Method != "":
		l.Kind, l.Method = "notification", env.Method
	default:
		l.Kind = "response"
		if len(env.Error) > 0 && string(env.Error) != "null" {
			l.Kind = "error"
		}
		reqDir := recording.ExtToHost
		if l.Direction == recording.ExtToHost {
			reqDir = recording.HostToExt
		}
		t.mu.Lock()
		if m, ok := t.open[key(reqDir)]; ok {
			l.Method = m
			delete(t.open, key(reqDir))
		}
		t.mu.Unlock()
	}
	return l
}

// eventLine describes one service event; payload is its redacted JSON.
func (t *tracer) eventLine(ev services.Event, payload []byte) TraceLine {
	l := TraceLine{Time: t.stamp(), Direction: "event", Extension: ev.Extension, Generation: ev.Generation, Kind: string(ev.Kind)}
	if json.Valid(payload) {
		l.Payload = payload
	}
	return l
}

func itoa64(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
