package sandbox_test

import (
	"bufio"
	"bytes"
	"fmt"
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

// hostEnv makes this test binary a host: it starts one confined probe that leaves orphans,
// prints "ready" once they run, and waits to be killed.
const hostEnv = "OCTET_SANDBOX_TEST_HOST"

func hostMain() {
	dir, marker := os.Args[1], os.Args[2]
	self, _ := os.Executable()
	spec := process.Spec{Name: "orphans", Dir: dir, Command: self, Args: []string{"orphans=" + marker, "stay="},
		Workspace: dir, APIVersion: "0.4", ScratchDir: filepath.Join(dir, "scratch"), PassEnv: []string{probeEnv},
		Sandbox: &sandbox.Request{Filesystem: "workspace", Read: []string{filepath.Dir(self)}},
		LookupEnv: func(k string) (string, bool) {
			switch k {
			case probeEnv:
				return "1", true
			case "PATH":
				return "/usr/bin:/bin", true
			}
			return "", false
		}}
	p, err := process.Start(spec)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	line, _ := bufio.NewReader(p.Stdout()).ReadString('\n')
	fmt.Print(line) // "orphans ok" once all three run
	time.Sleep(time.Hour)
}

func spawnOrphans(marker string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	sh := func(script string, setsid bool) error {
		c := exec.Command("/bin/sh", "-c", script, self, marker)
		c.Env = append(os.Environ(), sleepEnv+"=1")
		c.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
		return c.Start()
	}
	if err := sh(`exec "$0" "$1"`, false); err != nil { // a child in the group
		return err
	}
	if err := sh(`exec "$0" "$1"`, true); err != nil { // a setsid grandchild
		return err
	}
	if err := sh(`("$0" "$1" &) ; exit 0`, true); err != nil { // a double-forked daemon
		return err
	}
	deadline := time.Now().Add(5 * time.Second)
	for countMarked(marker) < 3 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := countMarked(marker); n < 3 {
		return fmt.Errorf("only %d of 3 orphans run", n)
	}
	return nil
}

// sleepEnv makes this test binary sleep forever (an orphan to be killed).
const sleepEnv = "OCTET_SANDBOX_TEST_SLEEP"

// countMarked counts the live processes that are this binary with marker as its argument.
func countMarked(marker string) int {
	self, _ := os.Executable()
	want := []byte(self + "\x00" + marker + "\x00")
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Equal(cmd, want) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil && strings.Contains(string(st), ") Z ") {
			continue
		}
		n++
	}
	return n
}

// A SIGKILL of the host ends the whole tree: a child in the group, a setsid grandchild and a
// double-forked daemon all die with it, with no scan and no later host. Unconfined, this
// test fails: the three live on (issue 26).
func TestOrphansDieWithKilledHost(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	marker := fmt.Sprintf("octet-orphan-%d-%d", os.Getpid(), time.Now().UnixNano())
	host := exec.Command(self, t.TempDir(), marker)
	host.Env = append(os.Environ(), hostEnv+"=1")
	out, err := host.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Process.Kill(); _ = host.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "orphans ok" {
		_ = host.Process.Kill()
		_ = host.Wait()
		t.Fatalf("host said %q", line)
	}
	if n := countMarked(marker); n != 3 {
		t.Fatalf("%d orphans run before the kill, want 3", n)
	}
	_ = host.Process.Kill()
	_ = host.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for countMarked(marker) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := countMarked(marker); n > 0 {
		t.Fatalf("%d processes outlived the SIGKILLed host", n)
	}
}
