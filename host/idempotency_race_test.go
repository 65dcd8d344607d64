package host_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/store"
)

// sqliteResults is the SQLite store as host.IdempotencyStore (what the reference host wires).
type sqliteResults struct{ *store.Store }

func (s sqliteResults) ClaimKey(ctx context.Context, ext, key, digest string, lease time.Duration) (host.IdempotencyClaim, error) {
	c, err := s.Store.ClaimKey(ctx, ext, key, digest, lease)
	return host.IdempotencyClaim(c), err
}

func idemFixture(t *testing.T) (*fixture, *store.Store, chan string) {
	f := newFixture(t)
	f.unconfined() // the test signals the extension by its host pid
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f.opts.Idempotency = sqliteResults{st}
	waits := make(chan string, 8)
	f.opts.OnIdempotencyWait = func(ext, key, holder string) { waits <- ext + "/" + key + " " + holder }
	return f, st, waits
}

// TestIdempotencyConcurrentFirstCallsRunOnce: two first calls with one key in one host;
// one runs ("hold" blocks until SIGUSR1), the other waits for it (OnIdempotencyWait, naming
// this process), a different call under the key meanwhile fails at once as a conflict, and
// both first calls return the one result: the extension never ran two holds at a time.
func TestIdempotencyConcurrentFirstCallsRunOnce(t *testing.T) {
	f, _, waits := idemFixture(t)
	h, failures, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "idem"})})
	if err != nil || len(failures) > 0 {
		t.Fatalf("start: %v %v", err, failures)
	}
	ext, ctx := h.Extension("idem"), context.Background()
	pidRaw, err := ext.Call(ctx, host.ToolCall{Name: "pid"})
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	fmt.Sscan(text(t, pidRaw), &pid)

	type answer struct {
		text string
		err  error
	}
	answers := make(chan answer, 2)
	for range 2 {
		go func() {
			raw, err := ext.Call(ctx, host.ToolCall{Name: "hold", Arguments: []byte(`{"n": 1}`), IdempotencyKey: "k"})
			if err != nil {
				answers <- answer{err: err}
				return
			}
			answers <- answer{text: string(raw)}
		}()
	}
	select {
	case w := <-waits:
		if !strings.HasPrefix(w, "idem/k ") || !strings.Contains(w, fmt.Sprintf("pid=%d ", os.Getpid())) {
			t.Fatalf("wait notice %q, want this process as the holder", w)
		}
	case a := <-answers:
		t.Fatalf("a call returned before the other waited: %+v", a)
	case <-time.After(30 * time.Second):
		t.Fatal("no call waited for the key: both ran")
	}
	var conflict *host.IdempotencyConflictError
	if _, err := ext.Call(ctx, host.ToolCall{Name: "hold", Arguments: []byte(`{"n": 2}`), IdempotencyKey: "k"}); !errors.As(err, &conflict) {
		t.Fatalf("other arguments while the key is held: %v, want an IdempotencyConflictError", err)
	}
	if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	a, b := <-answers, <-answers
	if a.err != nil || b.err != nil || a.text != b.text {
		t.Fatalf("answers %+v and %+v, want one result twice", a, b)
	}
	if got, err := call(t, h, "maxconc", "{}"); err != nil || got != "1" {
		t.Fatalf("holds at once: %s %v, want 1", got, err)
	}
}

// TestIdempotencyWaitIsBounded: a key held by a live call (here claimed straight in the
// store, as another host process would) is waited for only up to the host's request timeout
// and cancel grace; then the call is refused as *IdempotencyBusyError, without being sent.
// A key whose holder released it without a result is then run by the next call.
func TestIdempotencyWaitIsBounded(t *testing.T) {
	f, st, _ := idemFixture(t)
	f.opts.RequestTimeout, f.opts.CancelGrace = 300*time.Millisecond, 100*time.Millisecond
	h, failures, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "idem"})})
	if err != nil || len(failures) > 0 {
		t.Fatalf("start: %v %v", err, failures)
	}
	ext, ctx := h.Extension("idem"), context.Background()
	// The digest of echo {} as the host computes it: claim it by a first call's release path.
	probe, err := ext.Call(ctx, host.ToolCall{Name: "echo", IdempotencyKey: "probe"})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := st.ClaimKey(ctx, "idem", "probe", "", time.Minute)
	if err != nil || !rec.Recorded || string(rec.Result) != string(probe) {
		t.Fatalf("probe record: %+v %v", rec, err)
	}
	held, err := st.ClaimKey(ctx, "idem", "k", rec.Digest, time.Minute)
	if err != nil || held.Token == "" {
		t.Fatalf("claim: %+v %v", held, err)
	}
	_, err = ext.Call(ctx, host.ToolCall{Name: "echo", IdempotencyKey: "k"})
	var busy *host.IdempotencyBusyError
	if !errors.As(err, &busy) || busy.Key != "k" || busy.Waited < 400*time.Millisecond {
		t.Fatalf("held key: %v, want an IdempotencyBusyError after the 400ms bound", err)
	}
	if err := st.ReleaseClaim(ctx, "idem", "k", held.Token); err != nil {
		t.Fatal(err)
	}
	if raw, err := ext.Call(ctx, host.ToolCall{Name: "echo", IdempotencyKey: "k"}); err != nil || string(raw) != string(probe) {
		t.Fatalf("after release: %s %v, want the call run", raw, err)
	}
}
