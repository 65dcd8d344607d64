package sandbox_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/host/sandbox"
)

// probeEnv makes this test binary a probe: it runs each "verb arg" of its arguments and
// prints one line per probe, "ok" or "denied: <error>".
const probeEnv = "OCTET_SANDBOX_PROBE"

func TestMain(m *testing.M) {
	if os.Getenv(sleepEnv) != "" {
		time.Sleep(time.Hour)
		return
	}
	if os.Getenv(probeEnv) != "" {
		probeMain(os.Args[1:])
		return
	}
	if os.Getenv(hostEnv) != "" {
		hostMain()
		return
	}
	os.Exit(m.Run())
}

func probeMain(args []string) {
	for _, a := range args {
		verb, arg, _ := strings.Cut(a, "=")
		var err error
		switch verb {
		case "read":
			_, err = os.ReadFile(arg)
		case "write":
			err = os.WriteFile(arg, []byte("x"), 0o600)
		case "connect":
			var c net.Conn
			c, err = net.DialTimeout("tcp", arg, 2*time.Second)
			if err == nil {
				c.Close()
			}
		case "udp": // one datagram to host:port
			var c net.Conn
			c, err = net.Dial("udp", arg)
			if err == nil {
				_, err = c.Write([]byte("probe"))
				c.Close()
			}
		case "mptcp": // a stream socket that is not TCP (IPPROTO_MPTCP)
			var fd int
			fd, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 262)
			if err == nil {
				syscall.Close(fd)
			}
		case "tcpsocket": // a plain TCP socket, which the allowlist keeps
			var fd int
			fd, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
			if err == nil {
				syscall.Close(fd)
			}
		case "ptrace":
			err = syscall.PtraceAttach(1)
		case "mount":
			err = syscall.Mount("none", "/mnt", "tmpfs", 0, "")
		case "orphans":
			// a child in the group, a setsid grandchild and a double-forked daemon, all
			// sleeping with a marker the test finds them by
			err = spawnOrphans(arg)
		case "alloc": // allocate and touch N MiB
			n, _ := strconv.Atoi(arg)
			keep := make([][]byte, 0, n)
			for range n {
				b := make([]byte, 1<<20)
				for i := range b {
					b[i] = 1
				}
				keep = append(keep, b)
			}
			err = nil
			_ = keep
		case "spawn": // start N sleeping children at once
			n, _ := strconv.Atoi(arg)
			for i := 0; i < n && err == nil; i++ {
				c := exec.Command("/bin/sleep", "30")
				err = c.Start()
			}
		case "stay":
			time.Sleep(time.Hour)
		case "pid":
			fmt.Printf("ppid %d\n", os.Getppid())
			continue
		}
		if err != nil {
			fmt.Printf("%s denied: %v\n", verb, err)
		} else {
			fmt.Printf("%s ok\n", verb)
		}
	}
}

type env struct {
	dir, workspace, scratch, outside string
}

func newEnv(t *testing.T) env {
	t.Helper()
	e := env{dir: t.TempDir(), workspace: t.TempDir(), outside: t.TempDir()}
	e.scratch = filepath.Join(t.TempDir(), "scratch")
	if err := os.WriteFile(filepath.Join(e.outside, "secret"), []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// run starts this test binary as a confined extension with probes and returns its lines.
func run(t *testing.T, e env, req *sandbox.Request, probes ...string) []string {
	t.Helper()
	if err := sandbox.Available(); err != nil {
		t.Skipf("sandbox unavailable here: %v", err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if req != nil {
		req.Read = append(req.Read, filepath.Dir(self))
	}
	env := func(k string) (string, bool) {
		if k == "PATH" {
			return "/usr/bin:/bin", true
		}
		return "", false
	}
	spec := process.Spec{Name: "probe", Dir: e.dir, Command: self, Args: probes, Workspace: e.workspace,
		APIVersion: "0.4", ScratchDir: e.scratch, PassEnv: []string{probeEnv}, Sandbox: req,
		LookupEnv: func(k string) (string, bool) {
			if k == probeEnv {
				return "1", true
			}
			return env(k)
		}}
	p, err := process.Start(spec)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer p.Stop(time.Second)
	_ = p.CloseStdin()
	out, _ := io.ReadAll(bufio.NewReader(p.Stdout()))
	<-p.Done()
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

func expect(t *testing.T, lines []string, want ...string) {
	t.Helper()
	if len(lines) != len(want) {
		t.Fatalf("got %d lines %q, want %d", len(lines), lines, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("probe %d: got %q, want %q", i, lines[i], w)
		}
	}
}

// An extension that declares nothing reads and writes its own places and the workspace, and
// nothing else; it has no network; it cannot trace or mount.
func TestUndeclaredAccessDenied(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	lines := run(t, e, &sandbox.Request{Filesystem: "workspace"},
		"read="+filepath.Join(e.outside, "secret"),
		"write="+filepath.Join(e.outside, "new"),
		"read=/etc/shadow",
		"write="+filepath.Join(e.workspace, "w"),
		"write="+filepath.Join(e.scratch, "s"),
		"connect="+ln.Addr().String(),
		"ptrace=", "mount=", "pid=")
	expect(t, lines, "read denied", "write denied", "read denied", "write ok", "write ok", "connect denied",
		"ptrace denied", "mount denied", "ppid 1")
	if _, err := os.Stat(filepath.Join(e.outside, "new")); err == nil {
		t.Error("the denied write created its file")
	}
}

// The same probes unconfined succeed: the test above fails without the sandbox.
func TestUnconfinedProbesSucceed(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	lines := run(t, e, nil, "read="+filepath.Join(e.outside, "secret"), "write="+filepath.Join(e.outside, "new"), "connect="+ln.Addr().String())
	expect(t, lines, "read ok", "write ok", "connect ok")
}

// Declared paths and ports are allowed; filesystem = "none" takes the workspace away.
func TestDeclaredAccessAllowed(t *testing.T) {
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	lines := run(t, e, &sandbox.Request{Filesystem: "none", Network: true, Connect: []string{ln.Addr().String()},
		Read: []string{e.outside}, Write: []string{filepath.Join(e.outside, "out")}},
		"read="+filepath.Join(e.outside, "secret"),
		"write="+filepath.Join(e.outside, "new"),
		"write="+filepath.Join(e.workspace, "w"),
		"connect="+ln.Addr().String(),
		"connect="+other.Addr().String())
	expect(t, lines, "read ok", "write denied", "write denied", "connect ok", "connect denied")
}

// The budgets hold: a memory budget stops an allocation beyond it (the process dies or
// fails), a process budget stops the fork beyond it. RLIMIT_NPROC does not bind uid 0, so
// the process half runs for ordinary users only (docs/sandbox.md).
func TestBudgetsHold(t *testing.T) {
	e := newEnv(t)
	lines := run(t, e, &sandbox.Request{Filesystem: "workspace", MemoryMB: 512}, "alloc=16")
	expect(t, lines, "alloc ok")
	lines = run(t, e, &sandbox.Request{Filesystem: "workspace", MemoryMB: 512}, "alloc=1024")
	if len(lines) > 0 && lines[0] == "alloc ok" {
		t.Errorf("1 GiB allocated under a 512 MiB budget")
	}
	// As root, RLIMIT_NPROC does not bind: the pids cgroup (pids_linux.go) holds the budget.
	// Threads count too: the probe's runtime may die of the budget before its last fork.
	lines = run(t, e, &sandbox.Request{Filesystem: "workspace", Processes: 4}, "spawn=32")
	if len(lines) > 0 && lines[0] == "spawn ok" {
		t.Errorf("32 processes started under a budget of 4")
	}
	lines = run(t, e, &sandbox.Request{Filesystem: "workspace", Processes: 64}, "spawn=4")
	expect(t, lines, "spawn ok")
}

// StartLandlocked confines a process without namespaces (the bridge's MCP servers): its
// declared paths and port, nothing else.
func TestStartLandlocked(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	e := newEnv(t)
	self, _ := os.Executable()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	p, err := sandbox.Build(sandbox.Request{Name: "server", Dir: e.dir, Exe: self, Filesystem: "none", Network: true,
		Connect: []string{ln.Addr().String()}, Write: []string{e.workspace}, HostPath: "/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "read="+filepath.Join(e.outside, "secret"), "write="+filepath.Join(e.workspace, "w"),
		"write="+filepath.Join(e.outside, "w"), "connect="+ln.Addr().String(), "connect="+other.Addr().String())
	cmd.Env = append(os.Environ(), probeEnv+"=1")
	var out strings.Builder
	cmd.Stdout = &out
	if err := sandbox.StartLandlocked(cmd, p); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	expect(t, strings.Split(strings.TrimSpace(out.String()), "\n"), "read denied", "write ok", "write denied", "connect ok", "connect denied")
	// This process is not confined by it.
	if _, err := os.ReadFile(filepath.Join(e.outside, "secret")); err != nil {
		t.Fatalf("the host lost access: %v", err)
	}
}
