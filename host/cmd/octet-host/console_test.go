package main

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// A console line over the limit is refused with a message and the commands after it still
// run (issue 19 finding 6: it ended `run` with exit 0 and dropped them). A line of exactly
// the limit is a command like any other.
func TestRunConsoleRefusesAnOverlongLineAndGoesOn(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "con"})
	atLimit := strings.Repeat(" ", maxConsoleLine-len("tools")) + "tools"
	past := "call echo " + strings.Repeat("x", maxConsoleLine)
	stdin := atLimit + "\n" + past + "\n" + `call echo {"after":1}` + "\nquit\n"
	code, out, errOut := octetHost(t, stdin, "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, dir)
	if code != exitOK {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"echo\tcon",
		"console: a line of 1048586 bytes is over the 1048576-byte limit; ignored",
		`{\"after\":1}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%.2000s", want, out)
		}
	}
}
