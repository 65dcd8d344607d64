package host_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// API 0.1 is frozen: no protocol block, one request at a time, no resource owner and no
// $/cancelRequest (a timeout only stops waiting).
func TestAPI01IsSequentialWithoutCancellation(t *testing.T) {
	f := newFixture(t)
	// The timeout bounds every call below, not only the one meant to time out: an echo or
	// a 50 ms call that overran it on a loaded machine would free the host's single slot
	// while the extension still runs it, and the next call would overlap (maxconc 2).
	f.opts.RequestTimeout = 2 * time.Second
	var mu sync.Mutex
	var frames []string
	f.opts.OnFrame = func(_ string, _ int64, dir jsonrpc.Direction, frame []byte) {
		mu.Lock()
		frames = append(frames, dir.String()+" "+string(frame))
		mu.Unlock()
	}
	h, failures, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "old", API: "0.1"})})
	if err != nil || len(failures) > 0 {
		t.Fatalf("%v %v", err, failures)
	}
	raw, _, err := h.CallTool(t.Context(), "echo", []byte(`{"a":1}`))
	if err != nil || string(raw) != `{"content":"{\"a\":1}","is_error":false}` {
		t.Fatalf("0.1 result %s %v", raw, err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); _, _, _ = h.CallTool(t.Context(), "slow", []byte(`{"ms":50}`)) }()
	}
	wg.Wait()
	if raw, _, _ := h.CallTool(t.Context(), "maxconc", nil); !strings.Contains(string(raw), `"1"`) {
		t.Fatalf("0.1 ran calls concurrently: %s", raw)
	}
	if _, _, err := h.CallTool(t.Context(), "slow", []byte(`{"ms":60000}`)); err == nil {
		t.Fatalf("no timeout")
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(frames, "\n")
	if strings.Contains(all, "$/cancelRequest") || strings.Contains(all, "resource_owner") || strings.Contains(all, `"protocol"`) {
		t.Fatalf("0.1 wire carried 0.2 fields:\n%s", all)
	}
}
