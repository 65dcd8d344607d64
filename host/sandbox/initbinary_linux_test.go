package sandbox_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host/sandbox"
)

// The dedicated init (host/cmd/octet-sandbox-init) confines exactly as the re-executed host
// binary does: the same probes meet the same answers.
func TestDedicatedInitConfines(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skip(err)
	}
	bin := filepath.Join(t.TempDir(), sandbox.InitBinaryName)
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/octet-sandbox-init").CombinedOutput(); err != nil {
		t.Fatalf("building the init: %v\n%s", err, out)
	}
	sandbox.UseInit(bin)
	defer sandbox.UseInit("")
	e := newEnv(t)
	lines := run(t, e, &sandbox.Request{Filesystem: "workspace"},
		"read="+filepath.Join(e.outside, "secret"), "write="+filepath.Join(e.workspace, "w"), "ptrace=", "pid=")
	expect(t, lines, "read denied", "write ok", "ptrace denied", "ppid 1")
	// Run by hand, it says what it is and does nothing.
	out, err := exec.Command(bin).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || len(out) == 0 {
		t.Errorf("run by hand: %v %q", err, out)
	}
}
