package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
)

// latch is the fakeext tool "latch" behind two FIFOs: entered blocks until the call is
// running in the extension (and returns its line), release lets it answer.
type latch struct {
	t    *testing.T
	fifo string
}

func newLatch(t *testing.T, dir string) latch {
	l := latch{t: t, fifo: filepath.Join(dir, "latch")}
	for _, p := range []string{l.fifo, l.fifo + ".go"} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

func (l latch) args() string { return fmt.Sprintf(`{"fifo":%q}`, l.fifo) }

// within runs f, failing the test if it has not returned in d (a deadline, not a sleep).
func within[T any](t *testing.T, d time.Duration, what string, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		t.Fatalf("not within %s: %s", d, what)
		panic("unreachable")
	}
}

func (l latch) entered(what string) string {
	l.t.Helper()
	return within(l.t, 30*time.Second, what, func() string {
		b, _ := os.ReadFile(l.fifo)
		return strings.TrimSpace(string(b))
	})
}

func (l latch) release() {
	l.t.Helper()
	within(l.t, 30*time.Second, "the latched call reads its release", func() error {
		return os.WriteFile(l.fifo+".go", []byte("go\n"), 0)
	})
}

// resultText is the text of the one result line a `call` printed.
func resultText(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var r struct{ Content []struct{ Text string } }
		if json.Unmarshal([]byte(line), &r) == nil && len(r.Content) == 1 {
			return r.Content[0].Text
		}
	}
	t.Fatalf("no result line in:\n%s", out)
	return ""
}

// TestIdempotencyConcurrentHostsRunOnce: two host processes on one state directory make the
// same first call under one key at the same time. The first claims the key and runs; the
// second says it waits, runs nothing, and prints the first one's recorded result once it
// lands. (Without the claim the second runs the tool too and never says it waits.)
func TestIdempotencyConcurrentHostsRunOnce(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "idem", Tools: []string{"latch"}})
	l := newLatch(t, e.base)
	args := []string{"call", "--state", e.state, "--config", e.config, "--idempotency-key", "order-7", dir, "latch", l.args()}
	a := startHostChild(t, args...)
	entered := l.entered("the first host's call reaches the extension")
	b := startHostChild(t, args...)
	eventually(t, 30*time.Second, "the second host waits for the key's holder", func() bool {
		return strings.Contains(b.output(), `idempotency key "order-7" is held by a call still running`)
	})
	l.release()
	if err := a.cmd.Wait(); err != nil {
		t.Fatalf("first host: %v\n%s", err, a.output())
	}
	if err := b.cmd.Wait(); err != nil {
		t.Fatalf("second host: %v\n%s", err, b.output())
	}
	first, second := resultText(t, a.output()), resultText(t, b.output())
	if "entered "+first != entered || second != first {
		t.Fatalf("results %q and %q, want both the one run's %q", first, second, entered)
	}
}

// TestIdempotencyClaimOfKilledHostIsTakenOver: a host SIGKILLed while its call holds a key
// leaves a claim naming a dead process; the next host takes it over at once (no wait for
// the lease) and runs the call, and its result is what a retry gets.
func TestIdempotencyClaimOfKilledHostIsTakenOver(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "idem", Tools: []string{"latch"}})
	l := newLatch(t, e.base)
	args := []string{"call", "--state", e.state, "--config", e.config, "--idempotency-key", "order-8", dir, "latch", l.args()}
	a := startHostChild(t, args...)
	killed := l.entered("the first host's call reaches the extension")
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = a.cmd.Wait()
	b := startHostChild(t, args...)
	took := l.entered("the next host runs the call itself")
	l.release()
	if err := b.cmd.Wait(); err != nil {
		t.Fatalf("next host: %v\n%s", err, b.output())
	}
	if took == killed || strings.Contains(b.output(), "waiting for its result") {
		t.Fatalf("the next host ran %q (killed %q) and said:\n%s\nwant a new run without waiting", took, killed, b.output())
	}
	got := resultText(t, b.output())
	code, out, errOut := octetHost(t, "", append([]string{args[0], "--no-sandbox"}, args[1:]...)...)
	if code != exitOK || resultText(t, out) != got || "entered "+got != took {
		t.Fatalf("retry: %d %s%s, want the recorded %q", code, out, errOut, got)
	}
}
