package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance/scaffold"
	"github.com/octet-kit/octet/host/internal/testext"
)

// pathWithoutOctetHost is PATH without any directory holding an octet-host: the README's
// flow runs the host with `go run`, so a new shell does not find it.
func pathWithoutOctetHost() string {
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "octet-host")); err != nil {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// pasted runs line as a user pasting it into a new shell in another directory would.
func pasted(t *testing.T, line string) (string, error) {
	t.Helper()
	cmd := exec.Command("sh", "-ec", line)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PATH="+pathWithoutOctetHost())
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestNewNextStepsWorkWhenPasted scaffolds as the README's flow does (this test binary is a
// go-build temporary like a `go run` binary, and octet-host is not on PATH) and pastes the
// printed call step into a shell in another directory: a bare `octet-host call .` would not
// be found, nor find the scaffold.
func TestNewNextStepsWorkWhenPasted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run")
	}
	kit := scaffold.FindKit(".")
	if why := scaffold.SDKMissing(kit, "python"); why != "" {
		t.Skip(why)
	}
	t.Setenv("PATH", pathWithoutOctetHost())
	dir := filepath.Join(t.TempDir(), "pasted")
	code, out, errOut := octetHost(t, "", "new", "--lang", "python", "--kit", kit, "pasted", dir)
	if code != exitOK {
		t.Fatalf("new: exit %d\n%s%s", code, out, errOut)
	}
	_, next, ok := strings.Cut(out, "next, in "+dir+":\n")
	if !ok {
		t.Fatalf("no next steps printed:\n%s", out)
	}
	var call string
	for _, line := range strings.Split(next, "\n") {
		if strings.Contains(line, " call ") {
			call = strings.TrimSpace(line)
		}
	}
	if call == "" || strings.HasPrefix(call, "octet-host ") {
		t.Fatalf("the call step %q must invoke octet-host as a new shell finds it:\n%s", call, next)
	}
	got, err := pasted(t, call)
	if err != nil || !strings.Contains(got, "Hello, Ada!") {
		t.Fatalf("pasted %q in another directory: %v\n%s", call, err, got)
	}
}

// TestRecordedSessionHintKeepsState: the hint printed when a recording ends (after dev's
// Ctrl-C, run's quit or call) names the same --state, so pasting it finds the session.
func TestRecordedSessionHintKeepsState(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go run")
	}
	t.Setenv("PATH", pathWithoutOctetHost())
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "hint"})
	code, _, errOut := octetHost(t, "", "call", "--record", "--state", e.state, "--config", e.config, dir, "echo", `{"v":1}`)
	m := regexp.MustCompile(`recorded session (\S+) \((.+)\)`).FindStringSubmatch(errOut)
	if code != exitOK || m == nil {
		t.Fatalf("call --record: exit %d, no hint:\n%s", code, errOut)
	}
	if !strings.Contains(m[2], "--state "+e.state) {
		t.Fatalf("the hint %q drops --state %s", m[2], e.state)
	}
	got, err := pasted(t, m[2])
	if err != nil || !strings.Contains(got, "tool/call") {
		t.Fatalf("pasted %q: %v\n%s", m[2], err, got)
	}
}

// TestPythonLauncherPrefersItsVenv starts a Python scaffold through the host with a PATH
// whose python3 lacks the SDK, as a new shell without the venv activated has: the launcher
// must use the scaffold's own .venv (a real venv holding a copy of the kit's SDK).
func TestPythonLauncherPrefersItsVenv(t *testing.T) {
	kit := scaffold.FindKit(".")
	if why := scaffold.SDKMissing(kit, "python"); why != "" {
		t.Skip(why)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3")
	}
	dir := filepath.Join(t.TempDir(), "venv-ext")
	// No kit: the launcher then names plain python3, which here has no octet_extension.
	if _, err := scaffold.Generate(scaffold.Options{Lang: "python", Name: "venv-ext", Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", filepath.Join(dir, ".venv")).CombinedOutput(); err != nil {
		t.Fatalf("python3 -m venv: %v\n%s", err, out)
	}
	site, _ := filepath.Glob(filepath.Join(dir, ".venv", "lib", "python3*", "site-packages"))
	if len(site) != 1 {
		t.Fatalf("no site-packages in the new venv: %v", site)
	}
	// The SDK goes into the venv as an install puts it there: inside the scaffold's own
	// directory, which is all the sandbox lets a scaffold that declares nothing read.
	if out, err := exec.Command("cp", "-R", filepath.Join(kit, "sdk-python", "src", "octet_extension"), site[0]).CombinedOutput(); err != nil {
		t.Fatalf("copy the SDK into the venv: %v\n%s", err, out)
	}
	t.Setenv("PYTHONPATH", "")
	t.Setenv("OCTET_PYTHON", "")
	e := newEnv(t)
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "hello", `{"name":"Ada"}`)
	if code != exitOK || !strings.Contains(out, "Hello, Ada!") {
		t.Fatalf("call through the launcher without an activated venv: exit %d\n%s%s", code, out, errOut)
	}
}
