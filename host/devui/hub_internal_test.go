package devui

import (
	"strings"
	"testing"
)

func TestHubKeepsNewestWithinCountAndBytes(t *testing.T) {
	h := newHub(3, 1<<20)
	for i := 0; i < 5; i++ {
		h.publish("event", "x", 1, i)
	}
	got, _, cancel := h.subscribe(0)
	cancel()
	if len(got) != 3 || !strings.HasPrefix(string(got[0]), "id: 3\n") || !strings.HasPrefix(string(got[2]), "id: 5\n") {
		t.Fatalf("count bound: kept %q", got)
	}
	big := strings.Repeat("x", 600)
	h = newHub(100, 1500)
	for i := 0; i < 5; i++ {
		h.publish("frame", "x", 1, big)
	}
	got, _, cancel = h.subscribe(0)
	cancel()
	total := 0
	for _, m := range got {
		total += len(m)
	}
	if len(got) != 2 || total > 1500 || !strings.HasPrefix(string(got[1]), "id: 5\n") {
		t.Fatalf("byte bound: kept %d entries, %d bytes", len(got), total)
	}
	// Resuming after seq 4 gets exactly seq 5.
	got, _, cancel = h.subscribe(4)
	cancel()
	if len(got) != 1 || !strings.HasPrefix(string(got[0]), "id: 5\n") {
		t.Fatalf("resume: %q", got)
	}
}

func TestSlowStreamIsDroppedNotWaitedFor(t *testing.T) {
	h := newHub(1000, 1<<20)
	_, ch, cancel := h.subscribe(0)
	defer cancel()
	for i := 0; i < cap(ch)+1; i++ {
		h.publish("event", "x", 1, i) // never blocks, though nobody reads ch
	}
	n := 0
	for range ch {
		n++
	}
	if n != cap(ch) {
		t.Fatalf("the slow stream got %d entries before it was closed, want %d", n, cap(ch))
	}
}
