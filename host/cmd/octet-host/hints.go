package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/host/conformance/scaffold"
)

// selfCommand is how a printed hint invokes this octet-host so that it works when pasted
// into a new shell: "octet-host" when that is on PATH; else this binary's absolute path;
// else, for a `go run` binary (a temporary file the go tool deletes), `go -C KIT run
// ./host/cmd/octet-host` from the kit checkout found from the working directory. The
// second result says whether the command runs in another directory (go -C), so relative
// paths in the hint must be made absolute.
func selfCommand() (cmd string, elsewhere bool) {
	if _, err := exec.LookPath("octet-host"); err == nil {
		return "octet-host", false
	}
	exe, err := os.Executable()
	if err == nil && !goRunBinary(exe) {
		return scaffold.ShellQuote(exe), false
	}
	if wd, err := os.Getwd(); err == nil {
		if kit := scaffold.FindKit(wd); kit != "" {
			return "go -C " + scaffold.ShellQuote(kit) + " run ./host/cmd/octet-host", true
		}
	}
	return "octet-host", false
}

// goRunBinary reports whether exe was linked by `go run` or `go test` into the go tool's
// temporary work directory (go-build*), which is gone after the run.
func goRunBinary(exe string) bool {
	for d := filepath.Dir(exe); d != filepath.Dir(d); d = filepath.Dir(d) {
		if strings.HasPrefix(filepath.Base(d), "go-build") {
			return true
		}
	}
	return false
}

// hintPath is p as a hint should name it: absolute when the command runs elsewhere.
func hintPath(p string, elsewhere bool) string {
	if elsewhere {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
	}
	return scaffold.ShellQuote(p)
}

// stateHint is the --state flag a hint repeats so that it finds the same store: empty
// for the default directory.
func stateHint(dir string, elsewhere bool) string {
	if dir == "" || dir == defaultStateDir() {
		return ""
	}
	return " --state " + hintPath(dir, elsewhere)
}
