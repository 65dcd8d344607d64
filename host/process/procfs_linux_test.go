package process

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fieldsOfStat is the plain reading of a stat line (split after the last ')'), which the
// allocation-free parser must agree with.
func fieldsOfStat(t *testing.T, pid int) []string {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
}

// The parser reads the same fields as a split, also for a command name holding spaces and
// parentheses, and the table holds this process and its child.
func TestReadStatAgreesWithFields(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "a) 1 2 (b")
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin, "100")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()
	for _, pid := range []int{os.Getpid(), c.Process.Pid} {
		p, ok := readStat(pid)
		if !ok {
			t.Fatalf("readStat(%d) failed", pid)
		}
		f := fieldsOfStat(t, pid)
		num := func(i int) uint64 { v, _ := strconv.ParseUint(f[i-3], 10, 64); return v }
		if p.Pid != pid || uint64(p.ppid) != num(4) || uint64(p.pgid) != num(5) || uint64(p.sid) != num(6) ||
			p.Start != num(22) || p.envStart != num(50) || p.envEnd != num(51) || p.zombie != (f[0] == "Z") {
			t.Errorf("pid %d: parsed %+v, stat fields %v", pid, p, f)
		}
		if p.envStart == 0 || p.envEnd <= p.envStart {
			t.Errorf("pid %d: no environment range in %+v", pid, p)
		}
	}
	tab := readTable()
	if p := tab[c.Process.Pid]; p.ppid != os.Getpid() {
		t.Errorf("table: child %d has parent %d, want %d", c.Process.Pid, p.ppid, os.Getpid())
	}
	if _, ok := tab[os.Getpid()]; !ok {
		t.Errorf("table lacks this process")
	}
}

// A process's scratch entries are read from its environment, and the verdict is kept
// only while the same environment (pid, start, address range) is in the table.
func TestScratchEnvIsReadAndForgotten(t *testing.T) {
	c, p := startWithEnv(t, "A=1", "OCTET_EXTENSION_SCRATCH=/x/y", "OCTET_EXTENSION_SCRATCHY=no")
	if kv, ok := environHas(p, "OCTET_EXTENSION_SCRATCH=/x/y", false); !ok || kv != "OCTET_EXTENSION_SCRATCH=/x/y" {
		t.Errorf("exact: %q %v", kv, ok)
	}
	if _, ok := environHas(p, "OCTET_EXTENSION_SCRATCH=/x", false); ok {
		t.Errorf("a prefix matched without prefix set")
	}
	if kv, ok := environHas(p, "OCTET_EXTENSION_SCRATCH=/x/", true); !ok || kv != "OCTET_EXTENSION_SCRATCH=/x/y" {
		t.Errorf("prefix: %q %v", kv, ok)
	}
	k := envKey{p.Ident, p.envStart, p.envEnd}
	envCache.mu.Lock()
	_, cached := envCache.m[k]
	envCache.mu.Unlock()
	if !cached {
		t.Fatalf("verdict on %v not kept", k)
	}
	_ = c.Process.Kill()
	_ = c.Wait()
	currentTable()
	envCache.mu.Lock()
	_, cached = envCache.m[k]
	envCache.mu.Unlock()
	if cached {
		t.Errorf("verdict on the dead %v kept after a scan", k)
	}
}

// An exec that brings a marker is seen although the same process (pid and start time) had
// none before: the verdict is keyed by the environment's address range too.
func TestScratchEnvFollowsExec(t *testing.T) {
	c := exec.Command("sh", "-c", "read x; exec env -i OCTET_EXTENSION_SCRATCH=/z sleep 100")
	c.Env = []string{"A=1"}
	in, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Skip("no sh")
	}
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()
	p, _ := readStat(c.Process.Pid)
	if _, ok := environHas(p, "OCTET_EXTENSION_SCRATCH=/z", false); ok {
		t.Fatal("marker before the exec")
	}
	if _, err := in.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	// Poll: the new image's environment range is set a moment after its name.
	deadline := time.Now().Add(10 * time.Second)
	for {
		p2, _ := readStat(c.Process.Pid)
		if _, ok := environHas(p2, "OCTET_EXTENSION_SCRATCH=/z", false); ok {
			if p2.Start != p.Start {
				t.Fatalf("start time changed across exec: %d, %d", p.Start, p2.Start)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("marker after the exec not seen (stat %+v before, %+v after)", p, p2)
		}
		runtime.Gosched()
	}
}

// A read of /proc/<pid>/environ that hangs (the process is stuck on a dead mount, which
// holds its memory-map lock) holds up only the askers of that environment: the scan that
// prunes the verdicts, and so every stop, and the verdicts on other processes go on.
func TestScratchEnvHangingReadHoldsUpNoScan(t *testing.T) {
	_, p := startWithEnv(t, "OCTET_EXTENSION_SCRATCH=/hang/1")
	self, ok := readStat(os.Getpid())
	if !ok {
		t.Fatal("no stat of this process")
	}
	entered, release := make(chan struct{}), make(chan struct{})
	real := readEnviron
	readEnviron = func(pid int) ([]string, bool) {
		if pid == p.Pid {
			close(entered)
			<-release
		}
		return real(pid)
	}
	t.Cleanup(func() { readEnviron = real })
	got := make(chan []string, 1)
	go func() { v, _ := scratchEnv(p); got <- v }()
	<-entered
	others := make(chan struct{})
	go func() {
		currentTable()   // prunes the cache
		scratchEnv(self) // another process's verdict
		close(others)
	}()
	select {
	case <-others:
	case <-time.After(30 * time.Second):
		close(release)
		t.Fatal("a scan or another process's verdict waited on a hanging environ read")
	}
	close(release)
	if v := <-got; len(v) != 1 || v[0] != "OCTET_EXTENSION_SCRATCH=/hang/1" {
		t.Errorf("entries after the hang: %q", v)
	}
}

// startWithEnv starts a shell with exactly env that waits on its stdin, and returns its
// stat once it has said it runs: read right after Start, the child may not have exec'd
// yet, and the table then shows the forked copy of this process with no environment range.
func startWithEnv(t *testing.T, env ...string) (*exec.Cmd, procInfo) {
	t.Helper()
	c := exec.Command("/bin/sh", "-c", "echo ready; read x")
	c.Env = env
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := c.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Skip("no /bin/sh")
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = c.Process.Kill(); _ = c.Wait() })
	line := make([]byte, 6)
	if _, err := io.ReadFull(stdout, line); err != nil || string(line) != "ready\n" {
		t.Fatalf("shell did not start: %q %v", line, err)
	}
	p, ok := readStat(c.Process.Pid)
	if !ok || p.envStart == 0 {
		t.Fatalf("no stat with an environment range for %d: %+v", c.Process.Pid, p)
	}
	return c, p
}
