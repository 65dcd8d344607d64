package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/conformance/scaffold"
)

// TestNewScaffoldsCertifyGreen scaffolds each language into a temporary directory,
// runs the scaffold's own test with that SDK's testing helper, and certifies it.
func TestNewScaffoldsCertifyGreen(t *testing.T) {
	kit := scaffold.FindKit(".")
	if kit == "" {
		t.Fatal("the test runs inside the kit checkout, but no go.mod of github.com/octet-kit/octet was found upwards")
	}
	for _, lang := range scaffold.Languages {
		t.Run(lang, func(t *testing.T) {
			if why := scaffold.SDKMissing(kit, lang); why != "" {
				t.Skipf("the %s scaffold cannot be proven here: %s", lang, why)
			}
			if _, err := os.Stat(filepath.Join(kit, ".venv", "bin", "mypy")); lang == "python" && err != nil {
				t.Skipf("no kit .venv with mypy (go run mage.go pythonEnv): the python README's commands need it")
			}
			name := "new-" + lang
			dir := filepath.Join(t.TempDir(), name)
			code, out, errOut := octetHost(t, "", "new", "--kit", kit, "--lang", lang, name, dir)
			if code != exitOK {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			runScaffoldTest(t, lang, dir)
			if lang == "go" {
				assertGoScaffoldRebuilds(t, dir)
			}
			code, out, _ = octetHost(t, "", "certify", "--json", dir)
			var rep struct {
				Passed, Failed int
				Checks         []struct{ Name, Status, Detail string }
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("certify --json: %v\n%s", err, out)
			}
			if code != exitOK || rep.Failed != 0 || rep.Passed < 8 {
				t.Fatalf("certify: exit %d, %d passed, %d failed: %+v", code, rep.Passed, rep.Failed, rep.Checks)
			}
			assertToolsCalled(t, out)
		})
	}
}

// runScaffoldTest runs the commands of the scaffold's README literally, as one `sh -e`
// script in the scaffold's directory, with an octet-host binary first on PATH: the README
// is what an author follows, so it is what is tested (unit test, strict type check, a
// call and certify through the reference host).
func runScaffoldTest(t *testing.T, lang, dir string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := scaffold.ReadmeCommands(string(readme))
	if len(cmds) < 3 {
		t.Fatalf("the %s README has %d commands in its sh block, want the test, a call and certify:\n%s", lang, len(cmds), readme)
	}
	cmd := exec.Command("sh", "-ec", strings.Join(cmds, "\n"))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+hostBinDir(t)+string(os.PathListSeparator)+os.Getenv("PATH"), "PYTHONDONTWRITEBYTECODE=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the %s README's commands failed: %v\n%s\n--- output:\n%s", lang, err, strings.Join(cmds, "\n"), out)
	}
}

// assertGoScaffoldRebuilds edits the Go scaffold after its build and calls it: the run
// launcher must rebuild the stale binary rather than serve the old code.
func assertGoScaffoldRebuilds(t *testing.T, dir string) {
	t.Helper()
	src := filepath.Join(dir, "main.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), `"Hello, "`, `"Howdy, "`, 1)
	if edited == string(b) {
		t.Fatal("the Go scaffold's greeting changed; update this test")
	}
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	// The edit must be newer than the binary even on a coarse-timestamp file system.
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(src, later, later); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := octetHost(t, "", "call", dir, "hello", `{"name":"Ada"}`)
	if code != exitOK || !strings.Contains(out, "Howdy, Ada!") {
		t.Fatalf("after an edit the launcher served: exit %d\n%s%s", code, out, errOut)
	}
}

// hostBinDir builds octet-host once per test binary into a directory for PATH.
var hostBinDir = func() func(t *testing.T) string {
	var once sync.Once
	var dir string
	var err error
	return func(t *testing.T) string {
		once.Do(func() {
			dir, err = os.MkdirTemp("", "octet-host-bin-")
			if err == nil {
				var out []byte
				out, err = exec.Command("go", "build", "-o", filepath.Join(dir, "octet-host"), ".").CombinedOutput()
				if err != nil {
					err = fmt.Errorf("go build octet-host: %v\n%s", err, out)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
}()

func TestNewRefusesBadInput(t *testing.T) {
	base := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad name", []string{"new", "--lang", "python", "Bad Name", filepath.Join(base, "Bad Name")}, "must match"},
		{"unknown language", []string{"new", "--lang", "cobol", "x", filepath.Join(base, "x")}, "not one of"},
		{"directory named otherwise", []string{"new", "--lang", "python", "x", filepath.Join(base, "y")}, "must be named"},
		{"no language", []string{"new", "x"}, "want --lang"},
	}
	for _, c := range cases {
		code, _, errOut := octetHost(t, "", c.args...)
		if code != exitStartup || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit %d naming %q", c.name, code, errOut, exitStartup, c.want)
		}
	}
	full := filepath.Join(base, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := octetHost(t, "", "new", "--lang", "python", "full", full)
	if code != exitStartup || !strings.Contains(errOut, "not empty") {
		t.Errorf("non-empty directory: exit %d, stderr %q", code, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(full, "keep.txt")); string(b) != "mine" {
		t.Errorf("an existing file was changed")
	}
}
