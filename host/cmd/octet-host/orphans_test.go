package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
)

// hostChildEnv makes the test binary run the CLI (TestMain) instead of the tests.
const hostChildEnv = "OCTET_HOST_TEST_CHILD"

// hostChild is `octet-host ARGS` running as a child process of the test.
type hostChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	mu    sync.Mutex
	out   bytes.Buffer // stdout and stderr
}

func (h *hostChild) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out.Write(p)
}

func (h *hostChild) output() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.out.String()
}

// startHostChild runs octet-host VERB --no-sandbox ARGS...: these tests prove the /proc
// family scans and the subreaper, which are what keeps an unconfined extension's processes
// from outliving the host (confined ones die with their PID namespace: host/sandbox's
// TestOrphansDieWithKilledHost); their fixtures report host pids in files outside their
// own places, which the sandbox would refuse.
func startHostChild(t *testing.T, args ...string) *hostChild {
	t.Helper()
	args = append([]string{args[0], "--no-sandbox"}, args[1:]...)
	h := &hostChild{cmd: exec.Command(os.Args[0], args...)}
	h.cmd.Env = append(os.Environ(), hostChildEnv+"=1", "OCTET_TRUSTED_EXTENSIONS=")
	h.cmd.Stdout, h.cmd.Stderr = h, h
	var err error
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.cmd.Process.Kill(); _ = h.cmd.Wait() })
	return h
}

// eventually polls cond until it holds or the deadline passes (a deadline, not a sleep).
func eventually(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// proc is one process the test watches, by pid and start time (a recycled pid is not it).
type proc struct {
	pid   int
	start string
	what  string
}

func statFields(pid int) []string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	i := bytes.LastIndexByte(data, ')')
	return strings.Fields(string(data[i+1:]))
}

func watch(t *testing.T, pid int, what string) proc {
	f := statFields(pid)
	if f == nil {
		t.Fatalf("%s (pid %d) is not running", what, pid)
	}
	return proc{pid: pid, start: f[19], what: what}
}

// alive: the process exists, is the one watched, and is not a zombie.
func (p proc) alive() bool {
	f := statFields(p.pid)
	return f != nil && f[19] == p.start && f[0] != "Z" && f[0] != "X"
}

func liveOnes(ps []proc) []string {
	var out []string
	for _, p := range ps {
		if p.alive() {
			out = append(out, fmt.Sprintf("%s (pid %d)", p.what, p.pid))
		}
	}
	return out
}

// family writes one extension of every language (and a Go one that ignores SIGTERM and
// shutdown) that each start a same-group and a setsid grandchild, and returns their
// directories and the pid files they write.
func family(t *testing.T, exts string, hidden bool) (dirs, pidFiles []string) {
	t.Helper()
	if goruntime.GOOS != "linux" {
		t.Skip("process tracking is tested on Linux (/proc, subreaper, Pdeathsig)")
	}
	_, file, _, _ := goruntime.Caller(0)
	fixtures := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "family")
	pids := t.TempDir()
	add := func(dir string) {
		dirs = append(dirs, dir)
		pidFiles = append(pidFiles, filepath.Join(pids, filepath.Base(dir)))
	}
	goArgs := []string{"-family", filepath.Join(pids, "fam-go")}
	if hidden {
		goArgs = append(goArgs, "-family-hidden", "-family-hidden-orphan")
	}
	for _, e := range []testext.Ext{
		{Name: "fam-go", Tools: []string{"echo"}, Args: goArgs},
		{Name: "fam-stubborn", Tools: []string{"pid"}, Args: []string{"-family", filepath.Join(pids, "fam-stubborn"), "-ignore-term"}},
	} {
		add(testext.Write(t, exts, e))
	}
	write := func(name, tool, command string, args ...string) {
		dir := filepath.Join(exts, name)
		os.MkdirAll(dir, 0o755)
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = strconv.Quote(a)
		}
		m := fmt.Sprintf("name = %q\nversion = \"1.0.0\"\napi_version = \"0.4\"\n[entrypoint]\ncommand = %q\nargs = [%s]\n[contributes]\ntools = [%q]\n",
			name, command, strings.Join(quoted, ", "), tool)
		if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		add(dir)
	}
	py, _ := filepath.Abs(filepath.Join(fixtures, "python", "run"))
	write("fam-python", "hello_python", py, filepath.Join(pids, "fam-python"))
	sdk := filepath.Join(fixtures, "..", "..", "..", "sdk-typescript", "dist", "src", "index.js")
	if _, err := os.Stat(sdk); err != nil {
		// mage test runs the Go suite before it builds TypeScript; the rest still runs.
		t.Logf("the TypeScript fixture is left out, its SDK is not built (go run mage.go buildTypeScript): %v", err)
		return dirs, pidFiles
	}
	ts, _ := filepath.Abs(filepath.Join(fixtures, "typescript", "extension.mjs"))
	write("fam-typescript", "hello_typescript", "node", ts, filepath.Join(pids, "fam-typescript"))
	return dirs, pidFiles
}

// readFamily waits for every pid file and returns the grandchildren they name.
func readFamily(t *testing.T, pidFiles []string) []proc {
	t.Helper()
	var out []proc
	for _, f := range pidFiles {
		var data []byte
		eventually(t, 60*time.Second, "pid file "+f, func() bool {
			var err error
			data, err = os.ReadFile(f)
			return err == nil
		})
		for i, l := range strings.Fields(string(data)) {
			pid, _ := strconv.Atoi(l)
			out = append(out, watch(t, pid, fmt.Sprintf("%s grandchild %d", filepath.Base(f), i+1)))
		}
	}
	// Should the host fail the test, the sleeps do not outlive it (1000 s otherwise).
	t.Cleanup(func() {
		for _, p := range out {
			if p.alive() {
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
			}
		}
	})
	return out
}

// leadersOf reads the extension processes' pids from the status table run prints.
func leadersOf(t *testing.T, out string, names []string) []proc {
	t.Helper()
	var ps []proc
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		for _, n := range names {
			if len(f) >= 4 && f[0] == n && f[1] == "ready" {
				pid, _ := strconv.Atoi(f[3])
				ps = append(ps, watch(t, pid, n+" (extension)"))
			}
		}
	}
	if len(ps) != len(names) {
		t.Fatalf("status shows %d of %d extensions ready:\n%s", len(ps), len(names), out)
	}
	return ps
}

func scratchDirs(t *testing.T, state string) []string {
	m, _ := filepath.Glob(filepath.Join(state, "scratch", "*", "*"))
	var out []string
	for _, p := range m {
		if !strings.HasPrefix(filepath.Base(filepath.Dir(p)), ".") { // .hosts holds records
			out = append(out, p)
		}
	}
	return out
}

func startFamily(t *testing.T, hidden bool) (e *env, h *hostChild, leaders, kids []proc) {
	e = newEnv(t)
	dirs, pidFiles := family(t, e.exts, hidden)
	h = startHostChild(t, append([]string{"run", "--state", e.state, "--config", e.config}, dirs...)...)
	names := make([]string, len(dirs))
	for i, d := range dirs {
		names[i] = filepath.Base(d)
	}
	// Ready events are printed asynchronously and may interleave with the first status
	// table; once all are out, a second table (the status command) is printed alone.
	eventually(t, 60*time.Second, "every extension ready", func() bool {
		return strings.Contains(h.output(), "NAME") && strings.Count(h.output(), "] ready (generation 1)") == len(names)
	})
	// The table the status command prints is the first one after this mark (whatever else
	// the host wrote meanwhile, on stdout or stderr).
	mark := len(h.output())
	fmt.Fprintln(h.stdin, "status")
	var table string
	eventually(t, 30*time.Second, "the status table", func() bool {
		out := h.output()[mark:]
		i := strings.Index(out, "NAME ")
		if i < 0 {
			return false
		}
		table = out[i:]
		return strings.Count(table, "\n") > len(names)
	})
	return e, h, leadersOf(t, table, names), readFamily(t, pidFiles)
}

// After SIGKILL of `run` with extensions of all three languages, each with a same-group
// and a setsid grandchild (and a Go one that ignores SIGTERM and EOF, and a setsid
// orphan): the extensions die with the host (Pdeathsig), and the next host's start sweeps
// every grandchild and scratch directory the dead one left.
func TestNoOrphansAfterHostSIGKILL(t *testing.T) {
	e, h, leaders, kids := startFamily(t, false)
	if n := len(scratchDirs(t, e.state)); n != len(leaders) {
		t.Fatalf("%d scratch dirs for %d extensions", n, len(leaders))
	}
	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = h.cmd.Wait()
	eventually(t, 5*time.Second, "extensions die with the host", func() bool { return len(liveOnes(leaders)) == 0 })
	t.Logf("after SIGKILL: %d of %d grandchildren alive, %d scratch dirs left", len(liveOnes(kids)), len(kids), len(scratchDirs(t, e.state)))

	next := startHostChild(t, "run", "--state", e.state, "--config", e.config)
	eventually(t, 30*time.Second, "the next host starts", func() bool { return strings.Contains(next.output(), "NAME") })
	if left := liveOnes(kids); len(left) != 0 {
		t.Fatalf("alive after the next host's sweep: %v\n%s", left, next.output())
	}
	if left := scratchDirs(t, e.state); len(left) != 0 {
		t.Fatalf("scratch dirs after the sweep: %v", left)
	}
	if !strings.Contains(next.output(), "swept 1 dead host record(s)") {
		t.Errorf("the sweep is not reported:\n%s", next.output())
	}
	next.stdin.Close()
	if err := next.cmd.Wait(); err != nil {
		t.Fatalf("next host: %v\n%s", err, next.output())
	}
}

// A graceful shutdown (quit) leaves no descendant: not the setsid grandchildren, not the
// orphan, not the one that ignores SIGTERM, and not the orphan that also emptied its
// environment (only the subreaper finds that one). Checked the moment `run` has exited.
func TestNoOrphansAfterGracefulShutdown(t *testing.T) {
	e, h, leaders, kids := startFamily(t, true)
	fmt.Fprintln(h.stdin, "quit")
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("run: %v\n%s", err, h.output())
	}
	if left := liveOnes(append(leaders, kids...)); len(left) != 0 {
		t.Fatalf("alive after a graceful shutdown: %v\n%s", left, h.output())
	}
	if left := scratchDirs(t, e.state); len(left) != 0 {
		t.Fatalf("scratch dirs after a graceful shutdown: %v", left)
	}
}

// SIGTERM while a call hangs (the extension ignores cancellation, SIGTERM and shutdown)
// ends `run` within the bounded shutdown, well inside Docker's 10 s grace.
func TestSIGTERMDuringHungCall(t *testing.T) {
	e := newEnv(t)
	marker := filepath.Join(t.TempDir(), "called")
	dir := testext.Write(t, e.exts, testext.Ext{Name: "hung", Args: []string{"-deaf", "-ignore-term", "-call-marker", marker}})
	h := startHostChild(t, "run", "--state", e.state, "--config", e.config, dir)
	eventually(t, 30*time.Second, "ready", func() bool { return strings.Contains(h.output(), " ready ") })
	fmt.Fprintln(h.stdin, "call hold {}")
	eventually(t, 30*time.Second, "the call reaches the extension", func() bool { _, err := os.Stat(marker); return err == nil })
	began := time.Now()
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- h.cmd.Wait() }()
	select {
	case err := <-exited:
		took := time.Since(began)
		t.Logf("run ended %s after SIGTERM during a hung call", took.Round(10*time.Millisecond))
		if err != nil || !strings.Contains(h.output(), "shutting down (signal)") {
			t.Fatalf("run: %v\n%s", err, h.output())
		}
	case <-time.After(10 * time.Second): // Docker's grace: past it the container is SIGKILLed
		t.Fatalf("run still running 10 s after SIGTERM\n%s", h.output())
	}
}

// SIGTERM while an extension has not answered initialize ends `run` at once with the
// bounded shutdown, not after the 10 s start timeout, and leaves none of its descendants.
func TestSIGTERMDuringStartup(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("descendants are checked through /proc")
	}
	e := newEnv(t)
	pids := filepath.Join(t.TempDir(), "family")
	dir := testext.Write(t, e.exts, testext.Ext{Name: "mute", Args: []string{"-silent", "-family", pids}})
	h := startHostChild(t, "run", "--state", e.state, "--config", e.config, dir)
	kids := readFamily(t, []string{pids})
	began := time.Now()
	if err := h.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- h.cmd.Wait() }()
	select {
	case err := <-exited:
		t.Logf("run ended %s after SIGTERM during startup", time.Since(began).Round(10*time.Millisecond))
		if err != nil || !strings.Contains(h.output(), "shutting down (signal)") || strings.Contains(h.output(), "failed to start") {
			t.Fatalf("run: %v\n%s", err, h.output())
		}
	case <-time.After(8 * time.Second): // under the 10 s start timeout the old loop waited out
		t.Fatalf("run still running 8 s after SIGTERM during startup\n%s", h.output())
	}
	if left := liveOnes(kids); len(left) != 0 {
		t.Fatalf("alive after SIGTERM during startup: %v", left)
	}
}
