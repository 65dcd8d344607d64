package store

import (
	"context"
	"fmt"
	"testing"
)

func openInternal(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Events that arrive while a batch commits are grouped: 1,000 queued at once take two
// transactions (512 + 488), not 1,000.
func TestEventsGroupCommitted(t *testing.T) {
	s := openInternal(t, t.TempDir())
	l := s.log
	l.mu.Lock()
	for i := range 1000 {
		l.pending = append(l.pending, row{event: &eventRow{atMS: int64(i), kind: "notification", extension: "x", payload: []byte(`{}`)}})
	}
	l.appended += 1000
	l.cond.Broadcast()
	l.mu.Unlock()
	got, err := s.Events(context.Background(), "notification")
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	batches := l.batches
	l.mu.Unlock()
	if len(got) != 1000 || batches != 2 {
		t.Fatalf("%d events in %d transactions; want 1000 in 2", len(got), batches)
	}
}

// The table keeps only the newest rows: each batch prunes the oldest beyond the bound.
func TestEventsPrunedToRetention(t *testing.T) {
	s := openInternal(t, t.TempDir())
	if err := s.log.close(); err != nil {
		t.Fatal(err)
	}
	s.log = newAppendLog(s, 5)
	ctx := context.Background()
	for i := 1; i <= 12; i++ {
		if err := s.AppendEvent(ctx, int64(i), "notification", "x", fmt.Appendf(nil, `{"i":%d}`, i)); err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 { // several batches, each pruning
			if err := s.FlushEvents(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := s.Events(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var at []int64
	for _, e := range got {
		at = append(at, e.AtMS)
	}
	if fmt.Sprint(at) != "[8 9 10 11 12]" {
		t.Fatalf("kept events %v; want the newest 5, [8 9 10 11 12]", at)
	}
}

// Close commits what is still queued: nothing appended is lost on a clean close.
func TestCloseCommitsQueuedEvents(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if err := s.AppendEvent(context.Background(), int64(i), "diagnostic", "x", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.AppendEvent(context.Background(), 0, "diagnostic", "x", []byte(`{}`)); err == nil {
		t.Fatal("AppendEvent after Close succeeded")
	}
	got, err := openInternal(t, dir).Events(context.Background(), "diagnostic")
	if err != nil || len(got) != 300 {
		t.Fatalf("after reopening: %d events, %v; want 300", len(got), err)
	}
}
