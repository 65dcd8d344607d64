package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A root host's per-start pids cgroup carries the budget and is gone once removed.
func TestPidsCgroupMadeAndRemoved(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the pids cgroup is made for a root host only")
	}
	dir, err := newPidsCgroup(12)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "pids.max"))
	if err != nil || strings.TrimSpace(string(b)) != "12" {
		t.Errorf("pids.max = %q, %v; want 12", b, err)
	}
	removePidsCgroup(dir)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("%s left behind: %v", dir, err)
	}
}
