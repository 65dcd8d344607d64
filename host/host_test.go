package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testext.Cleanup()
	os.Exit(code)
}

// fakeClock fires every backoff timer at once and records the delays asked for.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	delays []time.Duration
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.delays = append(c.delays, d)
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}
func (c *fakeClock) advance(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }
func (c *fakeClock) recorded() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.delays...)
}

type fixture struct {
	t     *testing.T
	root  string
	clock *fakeClock
	opts  host.Options
}

func newFixture(t *testing.T) *fixture {
	base := t.TempDir()
	f := &fixture{t: t, root: filepath.Join(base, "exts"), clock: &fakeClock{now: time.Unix(1_000_000, 0)}}
	f.opts = host.Options{
		StateDir: filepath.Join(base, "state"), Workspace: base, Clock: f.clock, Rand: func() float64 { return 0.5 },
		StartTimeout: 5 * time.Second, TermGrace: 300 * time.Millisecond, ShutdownDrain: time.Second,
		Session: host.Session{SessionID: "s1"},
	}
	return f
}

// unconfined runs this fixture's extensions outside the sandbox: for tests that compare
// the pids an extension reports about itself (local to its PID namespace when confined)
// with the host's, or that prove the /proc family scans, which only unconfined
// extensions need.
func (f *fixture) unconfined() { f.opts.Unconfined = func(string) bool { return true } }

func (f *fixture) entry(e testext.Ext) *discovery.Entry {
	f.t.Helper()
	dir := testext.Write(f.t, f.root, e)
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: "0.8.0"})
	en := res.Lookup(e.Name)
	if en == nil || !en.Valid() {
		f.t.Fatalf("test manifest invalid: %v", res.Diagnostics)
	}
	return en
}

func (f *fixture) start(entries []*discovery.Entry, required ...string) (*host.Host, []host.StartFailure, error) {
	h := host.New(f.opts)
	failures, err := h.Start(context.Background(), entries, required)
	f.t.Cleanup(h.Shutdown)
	return h, failures, err
}

func text(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct{ Text string }
		IsError bool `json:"is_error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Content) == 0 {
		t.Fatalf("bad tool result %s: %v", raw, err)
	}
	return r.Content[0].Text
}

func call(t *testing.T, h *host.Host, tool, args string) (string, error) {
	t.Helper()
	raw, _, err := h.CallTool(context.Background(), tool, []byte(args))
	if err != nil {
		return "", err
	}
	return text(t, raw), nil
}

func TestCallAndSanitisedEnvironment(t *testing.T) {
	t.Setenv("AWS_SECRET_ACCESS_KEY", "hunter2-secret")
	t.Setenv("GRANTED_VAR", "granted-value")
	f := newFixture(t)
	f.opts.PassEnv = []string{"GRANTED_VAR"}
	h, failures, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "alpha"})})
	if err != nil || len(failures) > 0 {
		t.Fatalf("start: %v %v", err, failures)
	}
	got, err := call(t, h, "echo", `{"name":"Ada"}`)
	if err != nil || got != `{"name":"Ada"}` {
		t.Fatalf("echo: %q %v", got, err)
	}
	env, err := call(t, h, "env", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(env, "hunter2") || strings.Contains(env, "AWS_SECRET") {
		t.Errorf("secret leaked into the extension environment:\n%s", env)
	}
	for _, want := range []string{"GRANTED_VAR=granted-value", "OCTET_EXTENSION_NAME=alpha", "OCTET_EXTENSION_API_VERSION=0.4", "OCTET_WORKSPACE=", "OCTET_EXTENSION_SCRATCH="} {
		if !strings.Contains(env, want) {
			t.Errorf("missing %s in\n%s", want, env)
		}
	}
	st := h.Extension("alpha").Status()
	if st.State != host.StateReady || st.Generation != 1 || len(st.Features) != 2 {
		t.Errorf("status %+v", st)
	}
	if _, err := os.Stat(filepath.Join(f.opts.StateDir, "logs", "extensions", "alpha.log")); err != nil {
		t.Errorf("stderr log missing: %v", err)
	}
}

func TestStartFailuresAreClassified(t *testing.T) {
	f := newFixture(t)
	// Generous: seven processes start at once on a loaded machine and each must answer (or
	// fail) within it. Only "silent" waits the timeout out; it runs alone below, on a
	// host with a short one, so the generous bound costs nothing.
	f.opts.StartTimeout = 30 * time.Second
	noexec := f.entry(testext.Ext{Name: "noexec"})
	if err := os.WriteFile(filepath.Join(noexec.Dir, "plain"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	noexec.Manifest.Entrypoint.Command = "./plain"
	missing := f.entry(testext.Ext{Name: "missing"})
	missing.Manifest.Entrypoint.Command = "no-such-command-anywhere"
	type startCase struct {
		entry *discovery.Entry
		kind  process.Kind
		text  string
	}
	cases := map[string]startCase{
		"missing":  {missing, process.KindNotFound, "no-such-command-anywhere"},
		"noexec":   {noexec, process.KindNotExecutable, "not an executable"},
		"exits":    {f.entry(testext.Ext{Name: "exits", Args: []string{"--exit-before=5"}}), process.KindExited, "exited with code 5"},
		"garbage":  {f.entry(testext.Ext{Name: "garbage", Args: []string{"--garbage"}}), process.KindNonFrame, "hello, I am not JSON"},
		"version":  {f.entry(testext.Ext{Name: "version", Args: []string{"--answer-api=0.2"}}), process.KindRefused, "api_version"},
		"tools":    {f.entry(testext.Ext{Name: "tools", Args: []string{"--extra-tool=sneaky"}}), process.KindRefused, "differ from the manifest"},
		"features": {f.entry(testext.Ext{Name: "features", Args: []string{"--feature=teleport"}}), process.KindRefused, "teleport"},
	}
	var entries []*discovery.Entry
	for _, c := range cases {
		entries = append(entries, c.entry)
	}
	h, failures, err := f.start(entries)
	if err != nil {
		t.Fatal(err)
	}
	fs := newFixture(t)
	fs.opts.StartTimeout = 500 * time.Millisecond
	silent := fs.entry(testext.Ext{Name: "silent", Args: []string{"--silent"}})
	hs, silentFailures, err := fs.start([]*discovery.Entry{silent})
	if err != nil {
		t.Fatal(err)
	}
	cases["silent"] = startCase{silent, process.KindTimeout, "no initialize answer"}
	got := map[string]error{}
	for _, fl := range append(failures, silentFailures...) {
		got[fl.Name] = fl.Err
	}
	for name, c := range cases {
		var se *process.StartError
		if !errors.As(got[name], &se) || se.Kind != c.kind || !strings.Contains(se.Error(), c.text) {
			t.Errorf("%s: got %v, want kind %s containing %q", name, got[name], c.kind, c.text)
		}
		hn := h
		if name == "silent" {
			hn = hs
		}
		if st := hn.Extension(name).Status(); st.State != host.StateFailed {
			t.Errorf("%s: state %s", name, st.State)
		}
	}
	var se *process.StartError
	if errors.As(got["exits"], &se) && !strings.Contains(strings.Join(se.Stderr, "\n"), "failing on purpose with 5") {
		t.Errorf("exit failure lacks the stderr tail: %v", se.Stderr)
	}
	if !host.IsPermanent(got["version"]) || host.IsPermanent(got["exits"]) {
		t.Errorf("permanence misclassified")
	}
}

func TestRequiredFailureRollsBackAndDuplicatesFailClosed(t *testing.T) {
	f := newFixture(t)
	good := f.entry(testext.Ext{Name: "good"})
	dup := f.entry(testext.Ext{Name: "zdup", Tools: []string{"echo"}})
	h, failures, err := f.start([]*discovery.Entry{good, dup})
	if err != nil {
		t.Fatal(err)
	}
	var de *host.DuplicateToolError
	if len(failures) != 1 || !errors.As(failures[0].Err, &de) || de.Tool != "echo" || de.Existing != "good" {
		t.Fatalf("duplicate not refused: %v", failures)
	}
	if e, _ := h.Catalog().Lookup("echo"); e.Extension != "good" || len(h.Catalog().Tools) != len(testext.DefaultTools) {
		t.Fatalf("catalog changed partially: %+v", h.Catalog())
	}

	f2 := newFixture(t)
	ok := f2.entry(testext.Ext{Name: "ok"})
	bad := f2.entry(testext.Ext{Name: "needed", Args: []string{"--exit-before=1"}, Tools: []string{"other"}})
	h2, _, err := f2.start([]*discovery.Entry{ok, bad}, "needed")
	var se *host.StartupError
	if !errors.As(err, &se) || se.Required != "needed" {
		t.Fatalf("required failure not reported: %v", err)
	}
	if st := h2.Extension("ok").Status(); st.State != host.StateStopped {
		t.Fatalf("started extension not rolled back: %s", st.State)
	}
	if _, _, err := f2.start(nil, "absent"); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("missing required extension accepted: %v", err)
	}
}

func TestCrashMidCallFailsFastThenRestarts(t *testing.T) {
	f := newFixture(t)
	slowSent := make(chan struct{})
	var once sync.Once
	f.opts.OnFrame = func(_ string, _ int64, dir jsonrpc.Direction, frame []byte) {
		if dir == jsonrpc.Outbound && strings.Contains(string(frame), `"name":"slow"`) {
			once.Do(func() { close(slowSent) })
		}
	}
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "crashy"})})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("crashy")
	slowErr := make(chan error, 1)
	go func() { _, err := call(t, h, "slow", `{"ms":60000}`); slowErr <- err }()
	<-slowSent // the slow call is on the wire before the crash: both must fail
	began := time.Now()
	_, err = call(t, h, "crash", `{"code":3}`)
	var te *host.TransportError
	if !errors.As(err, &te) || !errors.Is(err, host.ErrTransport) || !strings.Contains(te.Reason, "exited with code 3") {
		t.Fatalf("crash: %v", err)
	}
	if err := <-slowErr; !errors.Is(err, host.ErrTransport) {
		t.Fatalf("concurrent call: %v", err)
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Fatalf("crash took %v to surface", d)
	}
	// The very next call through the host waits for the restart instead of failing on the
	// dead connection or as an unknown tool (the catalog meanwhile has dropped the dead
	// tool group; the host still resolves the tool to the restarting extension).
	if got, err := call(t, h, "echo", `{"next":true}`); err != nil || got != `{"next":true}` {
		t.Fatalf("call right after the crash: %q %v", got, err)
	}
	waitFor(t, func() bool { st := e.Status(); return st.State == host.StateReady && st.Generation == 2 })
	if st := e.Status(); st.Generation != 2 || st.Restarts != 1 {
		t.Fatalf("after restart: %+v", st)
	}
	if got, err := call(t, h, "echo", `{"again":true}`); err != nil || got != `{"again":true}` {
		t.Fatalf("after restart: %q %v", got, err)
	}
	if d := f.clock.recorded(); len(d) != 1 || d[0] != 125*time.Millisecond {
		t.Fatalf("backoff delays %v (want one full-jitter delay of 0.5×250ms)", d)
	}
}

func TestBackoffParksAfterEightFailures(t *testing.T) {
	f := newFixture(t)
	flag := filepath.Join(t.TempDir(), "fail")
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "flaky", Args: []string{"--exit-if-file=" + flag}})})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e := h.Extension("flaky")
	_, _ = call(t, h, "crash", `{"code":1}`)
	if _, err := e.WaitState(30*time.Second, host.StateParked); err != nil {
		t.Fatalf("not parked: %+v", e.Status())
	}
	d := f.clock.recorded()
	if len(d) != protocol.ParkAfterFailures {
		t.Fatalf("%d restart attempts, want %d: %v", len(d), protocol.ParkAfterFailures, d)
	}
	for i, got := range d {
		ceiling := min(backoffBase<<i, backoffCap)
		if got != ceiling/2 {
			t.Errorf("attempt %d: delay %v, want half of %v", i+1, got, ceiling)
		}
	}
	if st := e.Status(); !strings.Contains(st.LastError, "parked after 8") {
		t.Errorf("status %+v", st)
	}
	if _, err := call(t, h, "echo", `{}`); err == nil {
		t.Errorf("parked extension still serves its tools")
	}
	// An operator reload is the way back.
	os.Remove(flag)
	if err := e.Reload(context.Background()); err != nil {
		t.Fatalf("reload of parked: %v", err)
	}
	if st := e.Status(); st.State != host.StateReady || st.Failures != 0 {
		t.Fatalf("after reload %+v", st)
	}
}

func TestReadyResetRestoresBudget(t *testing.T) {
	f := newFixture(t)
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "steady"})})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("steady")
	for i := 0; i < 3; i++ {
		f.clock.advance(31 * time.Second) // continuously ready longer than the reset window
		_, _ = call(t, h, "crash", `{"code":1}`)
		waitFor(t, func() bool { st := e.Status(); return st.State == host.StateReady && st.Generation == int64(i+2) })
	}
	for i, d := range f.clock.recorded() {
		if d != backoffBase/2 {
			t.Errorf("crash %d: delay %v; the budget should reset after 30 s ready", i, d)
		}
	}
}

func TestReloadCutsOverAndRefusesIncompatible(t *testing.T) {
	f := newFixture(t)
	f.unconfined() // compares host pids with the ones the extension reports, or its family's
	en := f.entry(testext.Ext{Name: "rel"})
	h, _, err := f.start([]*discovery.Entry{en})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("rel")
	oldPID, _ := call(t, h, "pid", `{}`)
	if err := e.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	newPID, _ := call(t, h, "pid", `{}`)
	if newPID == oldPID || e.Status().Generation != 2 {
		t.Fatalf("no cut-over: %s -> %s, %+v", oldPID, newPID, e.Status())
	}
	pid, _ := strconv.Atoi(oldPID)
	if syscall.Kill(pid, 0) == nil && !zombie(pid) {
		t.Errorf("old generation %d still running", pid)
	}
	// An incompatible candidate is refused and the current generation keeps serving.
	testext.Write(t, f.root, testext.Ext{Name: "rel", Tools: []string{"echo"}})
	err = e.Reload(context.Background())
	if err == nil || !strings.Contains(err.Error(), "re-registration required") {
		t.Fatalf("incompatible reload: %v", err)
	}
	if got, _ := call(t, h, "pid", `{}`); got != newPID {
		t.Fatalf("old generation replaced despite refusal")
	}
	// A broken manifest leaves it serving too.
	os.WriteFile(en.ManifestPath, []byte("name = "), 0o644)
	if err := e.Reload(context.Background()); err == nil || !strings.Contains(err.Error(), "toml") {
		t.Fatalf("invalid manifest reload: %v", err)
	}
	if got, _ := call(t, h, "pid", `{}`); got != newPID {
		t.Fatalf("generation replaced by an invalid manifest")
	}
}

func TestTimeoutCancelsAndLateReplyIsHarmless(t *testing.T) {
	f := newFixture(t)
	// The timeout bounds every call of this host, the echo below included: short enough
	// to keep the test quick, long enough that an echo never hits it on a loaded machine.
	f.opts.RequestTimeout = 2 * time.Second
	cancelSent := make(chan struct{})
	var once sync.Once
	f.opts.OnFrame = func(_ string, _ int64, dir jsonrpc.Direction, frame []byte) {
		if dir == jsonrpc.Outbound && strings.Contains(string(frame), `"ms":20001`) {
			once.Do(func() { close(cancelSent) })
		}
	}
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "slowpoke"})})
	if err != nil {
		t.Fatal(err)
	}
	_, err = call(t, h, "slow", `{"ms":20000}`)
	var te *host.TimeoutError
	if !errors.As(err, &te) {
		t.Fatalf("want timeout, got %v", err)
	}
	if got, err := call(t, h, "echo", `{"x":1}`); err != nil || got != `{"x":1}` {
		t.Fatalf("call after timeout: %q %v", got, err)
	}
	// A caller's own cancellation of a call on the wire returns at once too (well before
	// the request timeout, which would be a TimeoutError).
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-cancelSent; cancel() }()
	if _, err := h.Extension("slowpoke").CallTool(ctx, "slow", []byte(`{"ms":20001}`)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: %v", err)
	}
}

func TestErrorsAndNonFrameAfterHandshake(t *testing.T) {
	f := newFixture(t)
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "noisy"})})
	if err != nil {
		t.Fatal(err)
	}
	_, err = call(t, h, "rpc_error", `{}`)
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != 1234 || we.Message != "authored failure" {
		t.Fatalf("authored error: %v", err)
	}
	_, err = call(t, h, "garbage", `{}`)
	var tr *host.TransportError
	if !errors.As(err, &tr) || !strings.Contains(tr.Reason, "Traceback") {
		t.Fatalf("non-frame line: %v", err)
	}
}

func TestShutdownKillsIgnorerAndItsGrandchild(t *testing.T) {
	f := newFixture(t)
	f.unconfined() // compares host pids with the ones the extension reports, or its family's
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "stubborn", Args: []string{"--ignore-term"}})})
	if err != nil {
		t.Fatal(err)
	}
	leader, _ := call(t, h, "pid", `{}`)
	child, err := call(t, h, "spawn", `{}`)
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	h.Shutdown()
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("shutdown took %v", d)
	}
	for _, p := range []string{leader, child} {
		pid, _ := strconv.Atoi(p)
		deadline := time.Now().Add(5 * time.Second)
		for syscall.Kill(pid, 0) == nil && !zombie(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("process %d survived shutdown", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if st := h.Extension("stubborn").Status(); st.State != host.StateStopped {
		t.Errorf("state %s", st.State)
	}
}

func zombie(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return true
	}
	s := string(stat)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(fields) > 0 && fields[0] == "Z"
}

// waitFor waits for cond with a generous deadline (a condition, never a fixed sleep).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not reached within 15s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func jsonUnmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }

// The schema's supervision backoff (wire.md §8), as durations.
const (
	backoffBase = protocol.BackoffBaseMS * time.Millisecond
	backoffCap  = protocol.BackoffCapMS * time.Millisecond
)
