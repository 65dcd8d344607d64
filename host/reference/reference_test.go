package reference_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(memoryChildEnv); dir != "" {
		floodChild(dir)
		os.Exit(0)
	}
	code := m.Run()
	testext.Cleanup()
	os.Exit(code)
}

// lockedBuffer is a trace sink written by the host's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func parseScript(t *testing.T, text string) *script.Script {
	t.Helper()
	sc, err := script.Parse("test.toml", []byte(text), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// open opens a reference host over a fresh state dir with bounds short enough for tests.
func open(t *testing.T, opts reference.Options) *reference.Host {
	t.Helper()
	base := t.TempDir()
	if opts.Store == nil {
		opts.Host.StateDir = filepath.Join(base, "state")
	}
	opts.Host.Workspace = base
	opts.Host.StartTimeout, opts.Host.ShutdownDrain, opts.Host.TermGrace = 10*time.Second, time.Second, 300*time.Millisecond
	h, err := reference.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// text is the first text part of a tool result.
func text(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var r struct{ Content []struct{ Text string } }
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("tool result %s: %v", raw, err)
	}
	return r.Content[0].Text
}

func TestOpenNeedsStateDirOrStore(t *testing.T) {
	if _, err := reference.Open(context.Background(), reference.Options{}); err == nil || !strings.Contains(err.Error(), "StateDir") {
		t.Fatalf("Open without state: %v", err)
	}
}

// A session sends the synthetic lifecycle of octet-host: session, turn and tool events,
// with the host's session id, around each tool call.
func TestSessionSendsLifecycle(t *testing.T) {
	h := open(t, reference.Options{Host: host.Options{Session: host.Session{SessionID: "s-lc"}}})
	dir := testext.Write(t, t.TempDir(), testext.Ext{Name: "lc", Args: []string{"--feature=lifecycle_events"}})
	ext, err := h.StartDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := h.BeginSession()
	if err != nil {
		t.Fatal(err)
	}
	if sess.ID() != "s-lc" || h.SessionID() != "s-lc" {
		t.Fatalf("session id %q / %q, want s-lc", sess.ID(), h.SessionID())
	}
	turn := sess.TurnStarted()
	if _, err := sess.CallTool(context.Background(), ext, turn, "fail", nil); err != nil {
		t.Fatal(err)
	}
	sess.TurnSettled(turn, "failed")
	raw, err := ext.CallTool(context.Background(), "notes", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "session/started s-lc\nturn/started s-lc\ntool/started s-lc\ntool/settled s-lc completed\nturn/settled s-lc failed"
	if got := text(t, raw); got != want {
		t.Fatalf("lifecycle seen by the extension:\n%s\nwant:\n%s", got, want)
	}
}

// A script's [[lifecycle]] entries replace the synthetic events: exactly its own, and
// tool calls add nothing.
func TestScriptedLifecycleReplacesSynthetic(t *testing.T) {
	sc := parseScript(t, `
[[lifecycle]]
method = "session/started"
session_id = "scripted"
[[lifecycle]]
method = "session/settled"
session_id = "scripted"
outcome = "limit"
`)
	h := open(t, reference.Options{Script: sc})
	ext, err := h.StartDir(context.Background(), testext.Write(t, t.TempDir(), testext.Ext{Name: "slc", Args: []string{"--feature=lifecycle_events"}}))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := h.BeginSession()
	if err != nil {
		t.Fatal(err)
	}
	turn := sess.TurnStarted()
	if _, err := sess.CallTool(context.Background(), ext, turn, "echo", json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	sess.TurnSettled(turn, "completed")
	raw, err := ext.CallTool(context.Background(), "notes", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := text(t, raw), "session/started scripted\nsession/settled scripted limit"; got != want {
		t.Fatalf("lifecycle seen by the extension:\n%s\nwant:\n%s", got, want)
	}
}

// Trace and recording see every frame, with the script's secret values redacted, and the
// caller's own OnFrame still sees them too.
func TestTraceAndRecordRedactSecrets(t *testing.T) {
	const secret = "very-secret-value-42"
	var trace lockedBuffer
	var mu sync.Mutex
	tapped := 0
	h := open(t, reference.Options{
		Script: parseScript(t, "[secrets]\n\"api.token\" = \""+secret+"\"\n"),
		Record: true,
		Trace:  &trace,
		Host: host.Options{OnFrame: func(string, int64, jsonrpc.Direction, []byte) {
			mu.Lock()
			tapped++
			mu.Unlock()
		}},
	})
	ext, err := h.StartDir(context.Background(), testext.Write(t, t.TempDir(), testext.Ext{Name: "rec"}))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := ext.CallTool(context.Background(), "echo", json.RawMessage(`{"leak":"`+secret+`"}`))
	if err != nil || !strings.Contains(string(raw), secret) {
		t.Fatalf("echo: %s %v", raw, err)
	}
	st := h.Store()
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	tr := trace.String()
	if strings.Contains(tr, secret) || !strings.Contains(tr, `"direction":"host->ext","extension":"rec","generation":1`) || !strings.Contains(tr, `"direction":"ext->host","extension":"rec","generation":1`) || !strings.Contains(tr, recording.Redacted) {
		t.Fatalf("trace leaks the secret or misses frames:\n%s", tr)
	}
	mu.Lock()
	if tapped < 4 { // initialize, its answer, tool/call, its answer
		t.Errorf("Options.Host.OnFrame saw %d frames", tapped)
	}
	mu.Unlock()
	if got := h.Recordings(); len(got) != 1 || got[0] != h.RecordingID("rec") {
		t.Fatalf("recordings %v, want [%s]", got, h.RecordingID("rec"))
	}
	// The host opened the store, so Close closed it: reopen to read the recording.
	if _, _, err := st.Frames(context.Background(), h.RecordingID("rec")); err == nil {
		t.Error("the store the host opened is still open after Close")
	}
	st2, err := store.Open(context.Background(), st.Dir())
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	frames, found, err := st2.Frames(context.Background(), h.RecordingID("rec"))
	if err != nil || !found || len(frames) < 4 {
		t.Fatalf("recording: %d frames, found %v, %v", len(frames), found, err)
	}
	for _, f := range frames {
		if strings.Contains(string(f.Frame), secret) {
			t.Fatalf("recorded frame leaks the secret: %s", f.Frame)
		}
	}
}

// A borrowed store (shared by several hosts) stays open after Close.
func TestBorrowedStoreStaysOpen(t *testing.T) {
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := open(t, reference.Options{Store: st, Record: true})
	if _, err := h.StartDir(context.Background(), testext.Write(t, t.TempDir(), testext.Ext{Name: "shared"})); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if _, found, err := st.Frames(context.Background(), h.RecordingID("shared")); err != nil || !found {
		t.Fatalf("the borrowed store was closed or not used: found %v, %v", found, err)
	}
}

// StartDir refuses a directory that is not a valid extension, naming the problem.
func TestStartDirRefusesInvalid(t *testing.T) {
	h := open(t, reference.Options{})
	dir := filepath.Join(t.TempDir(), "Bad_Name")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "extension.toml"), []byte("name = \"bad\"\n"), 0o644)
	if _, err := h.StartDir(context.Background(), dir); err == nil || !strings.Contains(err.Error(), "not a valid extension") {
		t.Fatalf("StartDir of an invalid manifest: %v", err)
	}
}
