package main

import (
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
)

// watchedBuffer is an io.Writer whose content a test can wait on: every Write wakes the
// waiters, so nothing sleeps to synchronise.
type watchedBuffer struct {
	mu      sync.Mutex
	b       strings.Builder
	changed chan struct{}
}

func newWatchedBuffer() *watchedBuffer { return &watchedBuffer{changed: make(chan struct{})} }

func (w *watchedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	close(w.changed)
	w.changed = make(chan struct{})
	return len(p), nil
}

func (w *watchedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitFor blocks until the output contains s, failing the test after limit (a bound on a
// hang, not a synchronisation: the wait ends as soon as the text is written).
func (w *watchedBuffer) waitFor(t *testing.T, s string, limit time.Duration) {
	t.Helper()
	deadline := time.After(limit)
	for {
		w.mu.Lock()
		has, ch := strings.Contains(w.b.String(), s), w.changed
		w.mu.Unlock()
		if has {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no %q within %s in:\n%s", s, limit, w.String())
		}
	}
}

// The run console serves commands concurrently: fakeext's hold blocks until it is
// cancelled, and while it is pending a second call and `status` answer at once (before,
// each line waited for the previous command: the echo would have waited out hold's whole
// --timeout). `cancel` then cancels hold on the wire, its error line says so, and quit
// exits cleanly.
func TestRunConsoleAnswersWhileACallHangs(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "conc"})
	stdin, feed := io.Pipe()
	out, errOut := newWatchedBuffer(), newWatchedBuffer()
	exited := make(chan int, 1)
	go func() {
		exited <- runConsole([]string{"--timeout", "10m", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "conc", dir}, stdin, out, errOut)
	}()
	out.waitFor(t, "NAME", time.Minute) // the first status table: started
	io.WriteString(feed, "call hold {}\n")
	// hold is pending (the host sent it) before the next line is typed.
	waitPending(t, out, feed)
	io.WriteString(feed, "call echo {\"second\":true}\n")
	out.waitFor(t, `{\"second\":true}`, time.Minute)
	if strings.Contains(out.String(), `"tool":"hold"`) {
		t.Fatalf("hold finished before the second call answered:\n%s", out.String())
	}
	io.WriteString(feed, "cancel\n")
	out.waitFor(t, "cancel: 1 running commands cancelled", time.Minute)
	out.waitFor(t, `{"error":{"kind":"cancelled","message":"the call was cancelled (an interrupt, a shutdown or the console's cancel); the extension was sent $/cancelRequest"},"tool":"hold"}`, time.Minute)
	io.WriteString(feed, "quit\n")
	select {
	case code := <-exited:
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
		}
	case <-time.After(time.Minute):
		t.Fatalf("run did not exit after quit:\n%s", out.String())
	}
	feed.Close()
}

// waitPending asks `status` until a table shows conc with one pending call (the call is
// started concurrently, so the first status may come before it is sent). Each round waits
// for the table it asked for; the bound is on rounds, not time.
func waitPending(t *testing.T, out *watchedBuffer, feed io.Writer) {
	t.Helper()
	for round := 0; round < 1000; round++ {
		tables := strings.Count(out.String(), "NAME  STATE")
		io.WriteString(feed, "status\n")
		for strings.Count(out.String(), "NAME  STATE") == tables {
			out.mu.Lock()
			ch, n := out.changed, strings.Count(out.b.String(), "NAME  STATE")
			out.mu.Unlock()
			if n > tables {
				break
			}
			select {
			case <-ch:
			case <-time.After(time.Minute):
				t.Fatalf("status did not answer:\n%s", out.String())
			}
		}
		s := out.String()
		last := s[strings.LastIndex(s, "NAME  STATE"):]
		for _, l := range strings.Split(last, "\n") {
			if f := strings.Fields(l); len(f) >= 6 && f[0] == "conc" && f[5] == "1" {
				return
			}
		}
	}
	t.Fatalf("no status line with one pending call:\n%s", out.String())
}
