package bundle_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

// The crash child: when the test binary is re-run with these variables it performs one
// bundle operation on the root and SIGKILLs itself at the given step (counted from 1), so
// nothing of the operation's deferred clean-up runs; at step 0 it only prints the steps.
const (
	crashRoot    = "OCTET_BUNDLE_CRASH_ROOT"
	crashArchive = "OCTET_BUNDLE_CRASH_ARCHIVE"
	crashOp      = "OCTET_BUNDLE_CRASH_OP" // install | update | update-aside | remove
	crashAt      = "OCTET_BUNDLE_CRASH_AT"
)

func TestBundleCrashChild(t *testing.T) {
	root := os.Getenv(crashRoot)
	if root == "" {
		t.Skip("run by TestKillAtEveryStep")
	}
	at, _ := strconv.Atoi(os.Getenv(crashAt))
	m := bundle.New(root)
	n := 0
	bundle.SetStepHook(m, func(step string) {
		n++
		fmt.Println("step", step)
		if n == at {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // the signal is on its way
		}
	})
	var err error
	switch op := os.Getenv(crashOp); op {
	case "install":
		_, err = m.Install(os.Getenv(crashArchive))
	case "update-aside":
		bundle.SetNoExchange(m)
		fallthrough
	case "update":
		_, err = m.Update(os.Getenv(crashArchive))
	case "remove":
		_, err = m.Remove("hello")
	}
	if err != nil {
		t.Fatal(err)
	}
}

// crashChild runs one operation in a child process killed at step at (0: not killed) and
// returns the steps it reached and whether it was killed.
func crashChild(t *testing.T, root, archive, op string, at int) (steps []string, killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBundleCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashRoot+"="+root, crashArchive+"="+archive, crashOp+"="+op, crashAt+"="+strconv.Itoa(at))
	out, err := cmd.Output()
	for _, l := range strings.Split(string(out), "\n") {
		if s, ok := strings.CutPrefix(l, "step "); ok {
			steps = append(steps, s)
		}
	}
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, _ := ee.Sys().(syscall.WaitStatus); ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return steps, true
		}
	}
	if err != nil {
		t.Fatalf("%s child (kill at %d): %v\n%s", op, at, err, out)
	}
	return steps, false
}

// A kill at any step of install, update (exchange and move-aside) or remove leaves the
// extension either at its old version or at its new one, for discovery, for bundle list and
// for the next operation, and the next operation leaves no leftovers in the root.
func TestKillAtEveryStep(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	v1 := archive(t, good("hello", "1.0.0", marker), false)
	v2 := archive(t, good("hello", "2.0.0", marker), false)
	cases := []struct {
		op       string
		before   string // version before the operation ("" nothing)
		after    string
		archive  string
		minSteps int
	}{
		{"install", "", "2.0.0", v2, 4},
		{"update", "1.0.0", "2.0.0", v2, 4},
		{"update-aside", "1.0.0", "2.0.0", v2, 7},
		{"remove", "1.0.0", "", "", 1},
	}
	for _, c := range cases {
		t.Run(c.op, func(t *testing.T) {
			prepare := func() string {
				root := filepath.Join(t.TempDir(), "extensions")
				m := bundle.New(root)
				if c.before != "" {
					if _, err := m.Install(v1); err != nil {
						t.Fatal(err)
					}
				}
				return root
			}
			steps, killed := crashChild(t, prepare(), c.archive, c.op, 0)
			if killed || len(steps) < c.minSteps {
				t.Fatalf("uninterrupted %s reached steps %v, want at least %d", c.op, steps, c.minSteps)
			}
			t.Logf("%s steps: %v", c.op, steps)
			for k := 1; k <= len(steps); k++ {
				root := prepare()
				reached, killed := crashChild(t, root, c.archive, c.op, k)
				if !killed || len(reached) != k {
					t.Fatalf("kill at step %d (%s): killed %v after %v", k, steps[k-1], killed, reached)
				}
				m := bundle.New(root)
				// Discovery is the first reader after the crash: it must find one version.
				found := versions(t, m)
				want := []string{c.before, c.after}
				if found != c.before && found != c.after {
					t.Fatalf("kill after %q: discovery finds %q, want one of %q", steps[k-1], found, want)
				}
				list, err := m.List()
				if err != nil {
					t.Fatal(err)
				}
				listed := ""
				if len(list) == 1 && list[0].Record != nil {
					listed = list[0].Record.Version
				}
				if listed != found {
					t.Fatalf("kill after %q: bundle list shows %q, discovery %q", steps[k-1], listed, found)
				}
				// The next operation works on whatever survived and leaves nothing behind.
				if found == "" {
					_, err = m.Install(v1)
				} else {
					_, err = m.Update(v1)
				}
				if err != nil {
					t.Fatalf("kill after %q: next operation: %v", steps[k-1], err)
				}
				if got := rootNames(t, root); !reflect.DeepEqual(got, []string{".lock", "hello"}) {
					t.Fatalf("kill after %q: the root holds %v after the next operation", steps[k-1], got)
				}
			}
		})
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a bundle's entrypoint ran")
	}
}

// versions is the version of hello discovery finds in m's root ("" none); a broken
// directory (a manifest without its files) fails the test.
func versions(t *testing.T, m *bundle.Manager) string {
	t.Helper()
	res := discover(m)
	if len(res.Diagnostics) != 0 {
		t.Fatalf("discovery diagnostics: %v", res.Diagnostics)
	}
	switch len(res.Entries) {
	case 0:
		return ""
	case 1:
		e := res.Entries[0]
		if _, err := os.Stat(filepath.Join(e.Dir, "docs", "v"+e.Manifest.Version+".md")); err != nil {
			t.Fatalf("discovered %s %s is incomplete: %v", e.Name, e.Manifest.Version, err)
		}
		return e.Manifest.Version
	}
	t.Fatalf("discovered %d entries", len(res.Entries))
	return ""
}
