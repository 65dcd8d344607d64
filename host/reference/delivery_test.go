package reference_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
)

// These tests back docs/host.md "Notification delivery". They run the conformance
// fixture of each language (examples/<lang>/conformance-fixture) as a real process.

var languages = []string{"go", "python", "typescript"}

// fixtureDir is the conformance fixture of lang, ready to start: the Go one is built
// first (a cold compile must not eat the start timeout); the TypeScript one needs
// `go run mage.go buildTypeScript`.
func fixtureDir(t testing.TB, lang string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "examples", lang, "conformance-fixture")
	switch lang {
	case "go":
		build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building the Go fixture: %v\n%s", err, out)
		}
	case "typescript":
		if _, err := os.Stat(filepath.Join(dir, "dist", "extension.js")); err != nil {
			t.Skip("the TypeScript fixture is not built (go run mage.go buildTypeScript)")
		}
		if _, err := exec.LookPath("node"); err != nil {
			t.Skip("no node on PATH")
		}
	}
	return dir
}

// eventLog collects service events in order.
type eventLog struct {
	mu     sync.Mutex
	events []services.Event
}

func (l *eventLog) Event(e services.Event) {
	l.mu.Lock()
	l.events = append(l.events, e)
	l.mu.Unlock()
}

// count is how many events of kind were seen, and the diagnostics among them all.
func (l *eventLog) count(kind services.EventKind) (n int, diags []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.events {
		if e.Kind == kind {
			n++
		}
		if d, ok := e.Payload.(services.Diagnostic); ok {
			diags = append(diags, d.Message)
		}
	}
	return n, diags
}

// storedNotes counts the stored notification events and the drops the diagnostics report.
func storedNotes(t *testing.T, st *store.Store) (stored, dropped int) {
	t.Helper()
	notes, err := st.Events(context.Background(), "notification")
	if err != nil {
		t.Fatal(err)
	}
	diags, err := st.Events(context.Background(), "diagnostic")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		var p services.Diagnostic
		_ = json.Unmarshal(d.Payload, &p)
		dropped += p.Dropped
	}
	return len(notes), dropped
}

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// An extension of each language sends 10,000 notifications and then its result, at the
// default pace: once the host has closed, every one is stored and none reported dropped
// (stored + dropped == sent, with dropped 0). The starting commit stored 941-1,312.
func TestEveryNotificationStoredEveryLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("sends 10,000 notifications per language")
	}
	const sent = 10000
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			dir := fixtureDir(t, lang)
			st := openStore(t)
			h := open(t, reference.Options{Store: st})
			ext, err := h.StartDir(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := ext.CallTool(context.Background(), "notify_n", json.RawMessage(fmt.Sprintf(`{"n":%d,"size":16}`, sent)))
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Structured struct{ Sent int } `json:"structured_content"`
			}
			if json.Unmarshal(raw, &res) != nil || res.Structured.Sent != sent {
				t.Fatalf("notify_n answered %s", raw)
			}
			if err := h.Close(); err != nil {
				t.Fatal(err)
			}
			stored, dropped := storedNotes(t, st)
			if stored != sent || dropped != 0 {
				t.Fatalf("%d sent: %d stored, %d reported dropped; want all stored", sent, stored, dropped)
			}
		})
	}
}

// A drain that cannot finish is reported exactly: fakeext answers, then writes 3,000
// notifications while the host, handling 50 a second after the burst, shuts it down with
// a 100 ms drain, so some are dropped; the stored ones plus the count the diagnostic
// reports are exactly what was sent, and the drop reaches Warnf (the CLI's stderr).
func TestDroppedNotificationsCountedExactly(t *testing.T) {
	const sent = 3000
	st := openStore(t)
	var mu sync.Mutex
	var warnings []string
	opts := reference.Options{Store: st, Warnf: func(f string, a ...any) {
		mu.Lock()
		warnings = append(warnings, fmt.Sprintf(f, a...))
		mu.Unlock()
	}}
	opts.Host.NotificationRate, opts.Host.NotificationDrain = 50, 100*time.Millisecond
	h := open(t, opts)
	ext, err := h.StartDir(context.Background(), testext.Write(t, t.TempDir(), testext.Ext{Name: "flood", Extra: "notifications = true\n"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ext.CallTool(context.Background(), "flood", json.RawMessage(fmt.Sprintf(`{"n":%d}`, sent))); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	stored, dropped := storedNotes(t, st)
	if dropped == 0 || stored+dropped != sent {
		t.Fatalf("%d sent: %d stored + %d reported dropped; want a drop, and the sum exact", sent, stored, dropped)
	}
	want := fmt.Sprintf("flood[1]: %d notifications dropped", dropped)
	mu.Lock()
	defer mu.Unlock()
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], want) {
		t.Fatalf("warnings %q; want one starting %q", warnings, want)
	}
}

// A handler's presentation snapshot, $/progress events and notification, written before
// its result, are all delivered (none dropped as "not an active host request"), in every
// language, 20 rounds each. The starting commit dropped the snapshot in 9 of 12 Go runs,
// 7 of 12 Python and 3 of 12 TypeScript, and some progress in nearly every run.
func TestHandlerEventsDeliveredBeforeResult(t *testing.T) {
	const rounds = 20
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			dir := fixtureDir(t, lang)
			events := &eventLog{}
			h := open(t, reference.Options{Events: events})
			ext, err := h.StartDir(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= rounds; i++ {
				for _, call := range []struct{ tool, args string }{
					{"present", fmt.Sprintf(`{"revision":%d,"activities":2}`, i)},
					{"progress_n", `{"n":3}`},
					{"notify", fmt.Sprintf(`{"message":"round %d","level":"info"}`, i)},
				} {
					if _, err := ext.CallTool(context.Background(), call.tool, json.RawMessage(call.args)); err != nil {
						t.Fatalf("round %d %s: %v", i, call.tool, err)
					}
				}
			}
			snaps, diags := events.count(services.EventPresentation)
			progress, _ := events.count(services.EventProgress)
			notes, _ := events.count(services.EventNotification)
			if snaps != rounds || progress != 3*rounds || notes != rounds || len(diags) != 0 {
				t.Fatalf("%d rounds: %d snapshots, %d progress events, %d notifications delivered; %d diagnostics %.3q", rounds, snaps, progress, notes, len(diags), diags)
			}
		})
	}
}

// The ordering, constructed: fakeext writes 200 $/progress events for a call and its
// result in one write, so the host reads the result right behind them. Every event is
// delivered before CallTool returns.
func TestEventsWrittenBeforeResultDeliveredFirst(t *testing.T) {
	const n = 200
	events := &eventLog{}
	h := open(t, reference.Options{Events: events})
	ext, err := h.StartDir(context.Background(), testext.Write(t, t.TempDir(), testext.Ext{Name: "burst", Args: []string{"-feature=request_progress"}}))
	if err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		before, _ := events.count(services.EventProgress)
		if _, err := ext.CallTool(context.Background(), "burst", json.RawMessage(fmt.Sprintf(`{"n":%d}`, n))); err != nil {
			t.Fatal(err)
		}
		after, diags := events.count(services.EventProgress)
		if after-before != n || len(diags) != 0 {
			t.Fatalf("round %d: %d of %d progress events delivered when CallTool returned; diagnostics %q", round, after-before, n, diags)
		}
	}
}

// memoryChildEnv makes the test binary the flooded host of TestHostMemoryBounded.
const memoryChildEnv = "OCTET_REFERENCE_FLOOD_CHILD"

// Host memory stays bounded under a flood: the Go fixture sends 100,000 notifications of
// 4 KB (400 MB) to a host in a child process (pacing off, so only the queue bounds it);
// the child's own peak RSS (VmHWM in /proc/self/status, read at its end: the extension
// process is not counted) stays under 128 MiB: the queue holds at most
// NOTIFICATION_QUEUE_BYTES (8 MiB), the event log 4,096 rows (16 MiB), plus the runtime
// and SQLite. The starting commit's CLI peaked at 465 MB.
func TestHostMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 400 MB of notifications")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc/self/status (Linux)")
	}
	dir := fixtureDir(t, "go")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostMemoryBounded$")
	cmd.Env = append(os.Environ(), memoryChildEnv+"="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("flooded host: %v\n%s", err, out)
	}
	var stored, peakKiB int
	if _, err := fmt.Sscanf(string(out), "stored %d peak %d", &stored, &peakKiB); err != nil {
		t.Fatalf("child said %q: %v", out, err)
	}
	const boundKiB = 128 << 10
	t.Logf("host peak RSS under 100,000 × 4 KB notifications: %.1f MiB; %d stored (the newest EVENTS_RETAINED)", float64(peakKiB)/1024, stored)
	if peakKiB > boundKiB {
		t.Fatalf("host peak RSS %d MiB; the bound is %d MiB", peakKiB>>10, boundKiB>>10)
	}
}

// floodChild is the child side of TestHostMemoryBounded: it prints what was stored.
func floodChild(dir string) {
	ctx := context.Background()
	state, _ := os.MkdirTemp("", "flood-state-")
	defer os.RemoveAll(state)
	h, err := reference.Open(ctx, reference.Options{Host: host.Options{StateDir: state, Workspace: state,
		NotificationRate: -1, RequestTimeout: 5 * time.Minute}})
	if err != nil {
		fail(err)
	}
	ext, err := h.StartDir(ctx, dir)
	if err != nil {
		fail(err)
	}
	if _, err := ext.CallTool(ctx, "notify_n", json.RawMessage(`{"n":100000,"size":4096}`)); err != nil {
		fail(err)
	}
	if err := h.Close(); err != nil {
		fail(err)
	}
	peak := vmHWM() // before anything reads the table back
	st, err := store.Open(ctx, state)
	if err != nil {
		fail(err)
	}
	defer st.Close()
	var stored int
	if err := st.DB().QueryRow(`SELECT count(*) FROM events WHERE kind = 'notification'`).Scan(&stored); err != nil {
		fail(err)
	}
	if stored != store.EventsRetained {
		fail(fmt.Errorf("%d stored; want the newest %d retained", stored, store.EventsRetained))
	}
	fmt.Printf("stored %d peak %d", stored, peak)
}

// vmHWM is this process's peak resident set size in KiB.
func vmHWM() int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fail(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d", &kib); err == nil {
				return kib
			}
		}
	}
	fail(fmt.Errorf("no VmHWM in /proc/self/status"))
	return 0
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}
