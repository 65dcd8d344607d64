package process

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// writeRecord fakes a host record, as a host that has since died would have left it.
func writeRecord(t *testing.T, root, run string, rec hostRecord) {
	t.Helper()
	os.MkdirAll(filepath.Join(root, hostsDir), 0o700)
	data, _ := json.Marshal(rec)
	if err := os.WriteFile(filepath.Join(root, hostsDir, run+".json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func sleeper(t *testing.T) *exec.Cmd {
	t.Helper()
	c := exec.Command("sleep", "1000")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c
}

// running: the process exists and is not a zombie. Sweep returns only once what it killed
// has died, so this is checked at once.
func running(c *exec.Cmd) bool {
	p, ok := readStat(c.Process.Pid)
	return ok && !p.zombie
}

// The sweep kills a dead host's recorded process only while its pid names the same process
// (same start time): a recycled pid is never signalled. A live host's record, and its
// scratch directories, are left alone; a dead host's scratch directories go.
func TestSweepKillsOnlyTheRecordedProcess(t *testing.T) {
	root := t.TempDir()
	dead := Ident{Pid: 1 << 22, Start: 1} // no such process
	recycled := sleeper(t)
	recorded := sleeper(t)
	wrong := identOf(recycled.Process.Pid)
	wrong.Start++ // the pid was someone else's when it was recorded
	writeRecord(t, root, "deadrun", hostRecord{Boot: bootID(), Host: dead, Leaders: []Ident{wrong, identOf(recorded.Process.Pid)}})
	writeRecord(t, root, "liverun", hostRecord{Boot: bootID(), Host: identOf(os.Getpid())})
	for _, d := range []string{"ext/ext-deadrun-1", "ext/ext-liverun-1"} {
		os.MkdirAll(filepath.Join(root, d), 0o700)
	}
	rep, err := Sweep(root, "selfrun")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Hosts != 1 || rep.Processes != 1 || rep.Scratch != 1 {
		t.Errorf("report %+v, want 1 host, 1 process, 1 scratch dir", rep)
	}
	if running(recorded) {
		t.Error("the recorded process of the dead host survived the sweep")
	}
	if !running(recycled) {
		t.Error("a process whose pid was recorded with another start time was killed")
	}
	if _, err := os.Stat(filepath.Join(root, "ext", "ext-liverun-1")); err != nil {
		t.Errorf("the live host's scratch dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "ext", "ext-deadrun-1")); err == nil {
		t.Error("the dead host's scratch dir is still there")
	}
	if _, err := os.Stat(filepath.Join(root, hostsDir, "liverun.json")); err != nil {
		t.Errorf("the live host's record: %v", err)
	}
}

// A run without a record (a host from before records, alive now) keeps its processes and
// its scratch directory; an unclaimed old scratch directory of such a run is removed, and so
// is a process carrying a dead host's marker.
func TestSweepSparesRunsWithoutRecord(t *testing.T) {
	root := t.TempDir()
	writeRecord(t, root, "deadrun", hostRecord{Boot: bootID(), Host: Ident{Pid: 1 << 22, Start: 1}})
	withMarker := func(run string) *exec.Cmd {
		dir := filepath.Join(root, "ext", "ext-"+run+"-1")
		os.MkdirAll(dir, 0o700)
		c := exec.Command("sleep", "1000")
		c.Env = []string{"OCTET_EXTENSION_SCRATCH=" + dir}
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		return c
	}
	older := withMarker("oldhost")
	orphan := withMarker("deadrun")
	stale := filepath.Join(root, "ext", "ext-gone-1")
	os.MkdirAll(stale, 0o700)
	past := time.Now().Add(-2 * unclaimedAge)
	os.Chtimes(stale, past, past)
	os.Chtimes(filepath.Join(root, "ext", "ext-oldhost-1"), past, past)
	if _, err := Sweep(root, "selfrun"); err != nil {
		t.Fatal(err)
	}
	if !running(older) {
		t.Error("the extension of a live host without a record was killed")
	}
	if running(orphan) {
		t.Error("a process carrying the dead host's marker survived")
	}
	if _, err := os.Stat(filepath.Join(root, "ext", "ext-oldhost-1")); err != nil {
		t.Errorf("the scratch dir a live process uses: %v", err)
	}
	for _, gone := range []string{stale, filepath.Join(root, "ext", "ext-deadrun-1")} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("%s is still there", gone)
		}
	}
}

// A sweep reads the process table only when a record of another host or a scratch
// directory of another run could be judged by it: a start after clean shutdowns reads none.
func TestSweepReadsTheTableOnlyWhenNeeded(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "ext", "ext-selfrun-1"), 0o700)
	before := tableReads.Load()
	if _, err := Sweep(root, "selfrun"); err != nil {
		t.Fatal(err)
	}
	if n := tableReads.Load() - before; n != 0 {
		t.Errorf("a sweep with nothing to judge read the table %d times", n)
	}
	os.MkdirAll(filepath.Join(root, "ext", "ext-otherrun-1"), 0o700)
	before = tableReads.Load()
	if _, err := Sweep(root, "selfrun"); err != nil {
		t.Fatal(err)
	}
	if n := tableReads.Load() - before; n == 0 {
		t.Error("a sweep with another run's scratch directory did not read the table")
	}
}
