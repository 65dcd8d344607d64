package recording

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
)

// Redactor removes secrets from the frames of one connection. The
// recorder uses it; so can anything else that prints frames (a trace).
type Redactor struct {
	needles [][]byte

	mu sync.Mutex
	// secretReplies are ids of extension->host requests whose result is a
	// secret (secret/get, input/request with secret: true).
	secretReplies map[string]bool
}

// NewRedactor builds a Redactor that also scrubs the known values.
func NewRedactor(known []string) *Redactor {
	r := &Redactor{secretReplies: map[string]bool{}}
	for _, s := range known {
		if s == "" {
			continue
		}
		// Match the value as it appears inside a JSON string.
		enc, _ := json.Marshal(s)
		r.needles = append(r.needles, enc[1:len(enc)-1])
	}
	return r
}

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// Redact returns a copy of frame safe to store or print: the result value
// of a reply to secret/get or to a secret input/request becomes Redacted,
// and every known secret value is scrubbed wherever it appears. Feed it
// every frame of a connection in order (it pairs replies with requests).
func (r *Redactor) Redact(direction string, frame []byte) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	frame = bytes.TrimRight(frame, "\n")
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

func (r *Redactor) scrub(frame []byte) []byte {
	for _, n := range r.needles {
		if bytes.Contains(frame, n) {
			frame = bytes.ReplaceAll(frame, n, []byte(Redacted))
		}
	}
	return frame
}
