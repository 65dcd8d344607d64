package host_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Lifecycle notifications reach an extension that negotiated lifecycle_events; a reloaded
// generation is seeded with the open session and the replaced one gets its terminal
// session/settled with outcome "shutdown".
func TestLifecycleNotificationsAcrossReload(t *testing.T) {
	f := newFixture(t)
	f.opts.Services = &recordingServices{} // lifecycle_events is offered only with services
	var mu sync.Mutex
	var sent []string
	f.opts.OnFrame = func(_ string, gen int64, dir jsonrpc.Direction, frame []byte) {
		if dir == jsonrpc.Outbound && strings.Contains(string(frame), "session/settled") {
			mu.Lock()
			sent = append(sent, fmt.Sprintf("%d %s", gen, frame))
			mu.Unlock()
		}
	}
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "lc", Args: []string{"--feature=lifecycle_events"}})})
	if err != nil {
		t.Fatal(err)
	}
	h.Lifecycle("session/started", map[string]any{"session_id": "s1"})
	h.Lifecycle("turn/started", map[string]any{"session_id": "s1", "turn_id": "t1"})
	raw, err := h.Extension("lc").CallTool(context.Background(), "notes", nil)
	if err != nil || text(t, raw) != "session/started s1\nturn/started s1" {
		t.Fatalf("notes: %s %v", raw, err)
	}
	if err := h.Extension("lc").Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	raw, _ = h.Extension("lc").CallTool(context.Background(), "notes", nil)
	if text(t, raw) != "session/started s1" {
		t.Fatalf("reloaded generation not seeded: %s", raw)
	}
	mu.Lock()
	if len(sent) != 1 || !strings.HasPrefix(sent[0], "1 ") || !strings.Contains(sent[0], `"outcome":"shutdown"`) {
		t.Fatalf("replaced generation's terminal event: %v", sent)
	}
	mu.Unlock()

	// Without lifecycle_events negotiated nothing is sent.
	f2 := newFixture(t)
	f2.opts.Services = &recordingServices{}
	h2, _, err := f2.start([]*discovery.Entry{f2.entry(testext.Ext{Name: "plainlc"})})
	if err != nil {
		t.Fatal(err)
	}
	h2.Lifecycle("session/started", map[string]any{"session_id": "s1"})
	if raw, err := h2.Extension("plainlc").CallTool(context.Background(), "notes", nil); err != nil || text2(raw) != "" {
		t.Fatalf("an extension without lifecycle_events got notifications: %s %v", raw, err)
	}
}

func text2(raw []byte) string {
	var r struct{ Content []struct{ Text string } }
	if jsonUnmarshal(raw, &r) != nil || len(r.Content) == 0 {
		return "?"
	}
	return r.Content[0].Text
}
