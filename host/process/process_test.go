package process_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/process"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testext.Cleanup()
	os.Exit(code)
}

func TestEnvironmentIsSanitised(t *testing.T) {
	host := map[string]string{
		"PATH": "/usr/bin", "HOME": "/home/u", "LC_ALL": "C", "LC_TIME": "en_GB.UTF-8", "LC_API_TOKEN": "lc-secret", "AWS_SECRET_ACCESS_KEY": "hunter2",
		"GITHUB_TOKEN": "ghp_x", "GRANTED": "yes", "SSH_AUTH_SOCK": "/tmp/agent", "OCTET_EXTENSION_NAME": "spoof",
	}
	lookup := func(k string) (string, bool) { v, ok := host[k]; return v, ok }
	environ := func() []string {
		var l []string
		for k, v := range host {
			l = append(l, k+"="+v)
		}
		return l
	}
	spec := &process.Spec{Name: "x", APIVersion: "0.4", PassEnv: []string{"GRANTED", "OCTET_EXTENSION_NAME", "MISSING"}, LookupEnv: lookup, Environ: environ}
	env := strings.Join(process.Environment(spec), "\n")
	for _, want := range []string{"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=C", "LC_TIME=en_GB.UTF-8", "GRANTED=yes", "OCTET_EXTENSION_NAME=x", "OCTET_EXTENSION_API_VERSION=0.4"} {
		if !strings.Contains(env, want+"\n") && !strings.HasSuffix(env, want) {
			t.Errorf("missing %s in\n%s", want, env)
		}
	}
	// LC_API_TOKEN is not a locale category (issue 19 finding 6: any LC_ prefix passed).
	for _, bad := range []string{"hunter2", "ghp_x", "SSH_AUTH_SOCK", "MISSING", "spoof", "lc-secret"} {
		if strings.Contains(env, bad) {
			t.Errorf("%s leaked into\n%s", bad, env)
		}
	}
	spec.SSHAuthSock = true
	if env := strings.Join(process.Environment(spec), "\n"); !strings.Contains(env, "SSH_AUTH_SOCK=/tmp/agent") {
		t.Errorf("declared SSH_AUTH_SOCK not passed")
	}
}

// A grant that is not a variable name is refused (issue 19 finding 6: --pass-env
// 'BAD=NAME' was accepted).
func TestCheckEnvName(t *testing.T) {
	for _, ok := range []string{"A", "_X", "ANTHROPIC_API_KEY", "lower_9"} {
		if err := process.CheckEnvName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "BAD=NAME", "9LIVES", "A-B", "A B", "Ä"} {
		if err := process.CheckEnvName(bad); err == nil || !strings.Contains(err.Error(), "not an environment variable name") {
			t.Errorf("%q accepted (%v)", bad, err)
		}
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := process.Resolve(dir, "tool", "/nonexistent"); err != nil || p != filepath.Join(dir, "tool") {
		t.Errorf("beside manifest: %q %v", p, err)
	}
	if p, err := process.Resolve(dir, "sh", "/bin:/usr/bin"); err != nil || !strings.HasSuffix(p, "/sh") {
		t.Errorf("PATH: %q %v", p, err)
	}
	var se *process.StartError
	if _, err := process.Resolve(dir, "no-such-cmd", "/bin"); !errors.As(err, &se) || se.Kind != process.KindNotFound {
		t.Errorf("missing: %v", err)
	}
	if _, err := process.Resolve(dir, "./plain", "/bin"); !errors.As(err, &se) || se.Kind != process.KindNotExecutable {
		t.Errorf("not executable: %v", err)
	}
	if err := os.Symlink("/bin/sh", filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if _, err := process.Resolve(dir, "./escape", "/bin"); err == nil || !strings.Contains(err.Error(), "outside the extension directory") {
		t.Errorf("symlink escape: %v", err)
	}
}

func start(t *testing.T, args []string, logPath string, limit int64) *process.Process {
	t.Helper()
	ws := t.TempDir()
	p, err := process.Start(process.Spec{
		Name: "fake", Dir: ws, Command: testext.Binary(t), Args: args, Workspace: ws, APIVersion: "0.4",
		ScratchDir: filepath.Join(ws, "scratch"), LogPath: logPath, LogLimit: limit,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Stop(time.Second) })
	return p
}

// roundTrip sends one tool call in fakeext's minimal form and returns the text result.
func roundTrip(t *testing.T, p *process.Process, sc *bufio.Scanner, name string, args map[string]any) string {
	t.Helper()
	req, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tool/call", "params": map[string]any{"name": name, "arguments": args}})
	if _, err := p.Stdin().Write(append(req, '\n')); err != nil {
		t.Fatal(err)
	}
	if !sc.Scan() {
		t.Fatalf("no answer: %v", sc.Err())
	}
	var resp struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	if err := json.Unmarshal(sc.Bytes(), &resp); err != nil || len(resp.Result.Content) == 0 {
		t.Fatalf("bad answer %s: %v", sc.Bytes(), err)
	}
	return resp.Result.Content[0].Text
}

func TestStderrLogIsBounded(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "logs", "fake.log")
	p := start(t, nil, logPath, 64<<10)
	sc := bufio.NewScanner(p.Stdout())
	roundTrip(t, p, sc, "stderr", map[string]any{"bytes": 300 << 10})
	_ = p.CloseStdin()
	<-p.Done()
	data, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 64<<10+len(process.TruncationMarker)+1 || !strings.HasSuffix(string(data), process.TruncationMarker) {
		t.Fatalf("log of %d bytes, tail %q", len(data), data[max(0, len(data)-100):])
	}
	if tail := p.StderrTail(); len(tail) == 0 || len(tail) > 20 {
		t.Fatalf("tail has %d lines", len(tail))
	}
}

func TestGroupIsKilledIncludingGrandchildAndSIGTERMIgnorer(t *testing.T) {
	p := start(t, []string{"--ignore-term"}, "", 0)
	sc := bufio.NewScanner(p.Stdout())
	var pid int
	if err := json.Unmarshal([]byte(roundTrip(t, p, sc, "spawn", nil)), &pid); err != nil || pid <= 0 {
		t.Fatalf("spawn: %v", err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("grandchild not running: %v", err)
	}
	began := time.Now()
	p.Stop(200 * time.Millisecond)
	if !p.Exited() || !strings.Contains(p.ExitDescription(), "killed") {
		t.Fatalf("leader: %s", p.ExitDescription())
	}
	if time.Since(began) > 10*time.Second {
		t.Fatalf("stop took %v", time.Since(began))
	}
	// The grandchild was SIGKILLed with the group; it is reaped by init, so wait for it to vanish.
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d survived the group kill", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestScratchAndWorkspace(t *testing.T) {
	p := start(t, nil, "", 0)
	sc := bufio.NewScanner(p.Stdout())
	env := roundTrip(t, p, sc, "env", nil)
	if !strings.Contains(env, "OCTET_EXTENSION_SCRATCH=") || !strings.Contains(env, "OCTET_WORKSPACE=") {
		t.Fatalf("env: %s", env)
	}
}

// alive reports whether pid exists and is not a zombie waiting for a reaper (a container's
// init may be slow to reap; a zombie holds no resources and runs no code).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}
