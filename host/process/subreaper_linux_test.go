package process

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// orphan starts `sleep 1000` from a shell in its own process group (as an extension is)
// that exits at once, and waits until the sleep has been adopted by this process.
func orphan(t *testing.T) int {
	t.Helper()
	c := exec.Command("sh", "-c", "sleep 1000 </dev/null >/dev/null 2>&1 & echo $!")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	until(t, "the orphan is adopted", func() bool { p, ok := readStat(pid); return ok && p.ppid == os.Getpid() })
	return pid
}

func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 5 s: %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// With the subreaper on, an orphan whose parent exited is adopted by this process; when it
// exits it is reaped, not left a zombie; KillAdopted ends one still running. (The test
// process stays a subreaper for the package's other tests, as a host would.)
func TestSubreaperAdoptsReapsAndKills(t *testing.T) {
	if err := EnableSubreaper(); err != nil {
		t.Skipf("no subreaper: %v", err)
	}
	exits := orphan(t)
	if err := syscall.Kill(exits, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	until(t, "the exited orphan is reaped", func() bool { _, ok := readStat(exits); return !ok })
	runs := orphan(t)
	if n := KillAdopted(); n < 1 {
		t.Fatalf("KillAdopted killed %d", n)
	}
	if _, ok := readStat(runs); ok {
		t.Fatal("the adopted orphan is still there (running or a zombie) after KillAdopted")
	}
}
