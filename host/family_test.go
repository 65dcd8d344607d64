package host_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
)

// familyPids waits for fakeext's -family file and returns the descendants it started:
// same-group, setsid, a setsid orphan whose parent exited at once, and (-family-hidden) a
// setsid child with an empty environment.
func familyPids(t *testing.T, file string) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, err := os.ReadFile(file)
		if err == nil {
			var pids []int
			for _, f := range strings.Fields(string(data)) {
				pid, _ := strconv.Atoi(f)
				pids = append(pids, pid)
			}
			os.Remove(file)
			// Should the host fail the test, the sleeps do not outlive it (they would
			// otherwise run for 1000 s); SIGKILL only one that is still a running sleep.
			t.Cleanup(func() {
				for _, pid := range pids {
					if cmd, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline")); running(pid) && strings.HasPrefix(string(cmd), "sleep\x00") {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			})
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("no family file %s", file)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// running: the pid exists and is not a zombie. The descendants are sleeps that nothing
// else would end within the test, so a recycled pid is not a concern here.
func running(pid int) bool {
	_, err := os.Stat(filepath.Join("/proc", strconv.Itoa(pid)))
	return err == nil && !zombie(pid)
}

// Without the subreaper (the library default), stopping an extension — and replacing its
// generation by reload — kills every descendant, including a setsid one and a setsid
// orphan that has left the process tree; the moment Stop or Reload returns none is alive.
func TestStopKillsEveryDescendant(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("descendant tracking needs /proc")
	}
	f := newFixture(t)
	f.unconfined() // compares host pids with the ones the extension reports, or its family's
	file := filepath.Join(t.TempDir(), "family")
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "fam", Args: []string{"-family", file, "-family-hidden"}})})
	if err != nil {
		t.Fatal(err)
	}
	first := familyPids(t, file)
	if len(first) != 4 {
		t.Fatalf("family %v", first)
	}
	e := h.Extension("fam")
	if err := e.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, pid := range first {
		if running(pid) {
			t.Errorf("descendant %d of the replaced generation survived the reload", pid)
		}
	}
	second := familyPids(t, file)
	h.Shutdown()
	for _, pid := range second {
		if running(pid) {
			t.Errorf("descendant %d survived shutdown", pid)
		}
	}
}

// A crash ends the generation like a stop: every descendant is killed before supervision
// starts the next one (polled: the crash is noticed asynchronously).
func TestCrashKillsEveryDescendant(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("descendant tracking needs /proc")
	}
	f := newFixture(t)
	f.unconfined() // compares host pids with the ones the extension reports, or its family's
	file := filepath.Join(t.TempDir(), "family")
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "fam", Args: []string{"-family", file}})})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Shutdown()
	pids := familyPids(t, file)
	_, _ = call(t, h, "crash", `{}`)
	deadline := time.Now().Add(10 * time.Second)
	for _, pid := range pids {
		for running(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("descendant %d survived the crash of its extension", pid)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}
