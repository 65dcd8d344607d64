package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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
			name := "new-" + lang
			dir := filepath.Join(t.TempDir(), name)
			code, out, errOut := octetHost(t, "", "new", "--kit", kit, "--lang", lang, name, dir)
			if code != exitOK {
				t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
			}
			runScaffoldTest(t, kit, lang, dir)
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
		})
	}
}

// runScaffoldTest runs the test the scaffold ships, the way its README says.
func runScaffoldTest(t *testing.T, kit, lang, dir string) {
	t.Helper()
	var cmd *exec.Cmd
	switch lang {
	case "python":
		python := filepath.Join(kit, ".venv", "bin", "python")
		if _, err := os.Stat(python); err != nil {
			t.Logf("no %s (go run mage.go pythonEnv): the scaffold's pytest is not run", python)
			return
		}
		cmd = exec.Command(python, "-m", "pytest", "-q", "-p", "no:cacheprovider")
		cmd.Env = append(os.Environ(), "PYTHONPATH="+filepath.Join(kit, "sdk-python", "src"), "PYTHONDONTWRITEBYTECODE=1")
	case "typescript":
		cmd = exec.Command("node", "--test", "dist/extension.test.js")
	case "go":
		cmd = exec.Command("go", "test", "./...")
		cmd.Env = append(os.Environ(), "GOWORK=off")
	}
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the scaffold's own test (%s): %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}

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
