package devui

import (
	"encoding/json"
	"strconv"
	"sync"
	"time"
)

// Entry is one thing the page shows live: a frame, a service event, a state change, a
// catalog revision, a question waiting for the person, or its answer. Seq numbers every
// entry of this inspector run from 1, so a reloaded page (or a reconnecting event stream,
// with Last-Event-ID) asks for what came after the last one it saw.
type Entry struct {
	Seq       int64  `json:"seq"`
	AtMS      int64  `json:"at_ms"`
	Type      string `json:"type"` // frame | event | state | catalog | question | answered | call
	Extension string `json:"extension,omitempty"`
	// Generation is the extension's process generation, 0 for host-wide entries.
	Generation int64 `json:"generation,omitempty"`
	Data       any   `json:"data"`
}

// kept is one entry as the stream sends it, encoded once.
type kept struct {
	seq int64
	msg []byte
}

// hub keeps the newest entries, bounded in count and in bytes, and fans new ones out to
// the event streams. A stream that falls behind is closed, not waited for (publishers are
// the extensions' reader goroutines); the browser reconnects with Last-Event-ID and
// catches up from what is kept.
type hub struct {
	mu       sync.Mutex
	ring     []kept // oldest first
	bytes    int
	seq      int64
	limit    int
	maxBytes int
	subs     map[chan []byte]struct{}
	now      func() time.Time
}

func newHub(limit, maxBytes int) *hub {
	return &hub{limit: limit, maxBytes: maxBytes, subs: map[chan []byte]struct{}{}, now: time.Now}
}

// publish numbers an entry, keeps it and sends it to every stream.
func (h *hub) publish(typ, ext string, gen int64, data any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	msg := sseMessage(Entry{Seq: h.seq, AtMS: h.now().UnixMilli(), Type: typ, Extension: ext, Generation: gen, Data: data})
	h.ring = append(h.ring, kept{seq: h.seq, msg: msg})
	h.bytes += len(msg)
	drop := 0
	for len(h.ring)-drop > h.limit || (h.bytes > h.maxBytes && len(h.ring)-drop > 1) {
		h.bytes -= len(h.ring[drop].msg)
		drop++
	}
	if drop > 0 {
		h.ring = append(h.ring[:0:0], h.ring[drop:]...)
	}
	for ch := range h.subs {
		select {
		case ch <- msg:
		default: // too slow: drop the stream; the browser resumes from what is kept
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// sinceLocked returns the kept messages after seq, oldest first.
func (h *hub) sinceLocked(seq int64) [][]byte {
	var out [][]byte
	for _, k := range h.ring {
		if k.seq > seq {
			out = append(out, k.msg)
		}
	}
	return out
}

// subscribe returns the kept messages after seq and a channel of the ones that follow,
// with nothing lost or repeated between the two. cancel unsubscribes.
func (h *hub) subscribe(seq int64) (backlog [][]byte, ch chan []byte, cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ch = make(chan []byte, 256)
	h.subs[ch] = struct{}{}
	return h.sinceLocked(seq), ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if _, ok := h.subs[ch]; ok {
			delete(h.subs, ch)
			close(ch)
		}
	}
}

// lastSeq is the newest entry's seq (0 before the first).
func (h *hub) lastSeq() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seq
}

// sseMessage is one server-sent event: id is the entry's seq (the browser's Last-Event-ID).
func sseMessage(e Entry) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		b, _ = json.Marshal(Entry{Seq: e.Seq, AtMS: e.AtMS, Type: "error", Data: err.Error()})
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, "id: "...)
	out = strconv.AppendInt(out, e.Seq, 10)
	out = append(out, "\ndata: "...)
	out = append(out, b...)
	return append(out, "\n\n"...)
}
