package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNewOutsideACheckoutWithoutSDKRefuses runs the built octet-host in an empty
// directory outside any checkout, as a newcomer would after copying the binary onto PATH:
// `new` without --sdk has no SDK packages to point at (they are not on the registries), so
// it must refuse, name --sdk and the command that writes a release directory, and write
// nothing, instead of a scaffold whose install fails later.
func TestNewOutsideACheckoutWithoutSDKRefuses(t *testing.T) {
	fresh := t.TempDir()
	for _, lang := range []string{"go", "python", "typescript"} {
		cmd := exec.Command(filepath.Join(hostBinDir(t), "octet-host"), "new", "--lang", lang, "weather")
		cmd.Dir = fresh
		cmd.Env = append(os.Environ(), "HOME="+fresh)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitStartup {
			t.Fatalf("%s: new without --sdk outside a checkout: %v, want exit %d\n%s", lang, err, exitStartup, out)
		}
		for _, want := range []string{"--sdk", "go run mage.go dist"} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s: the refusal does not name %q:\n%s", lang, want, out)
			}
		}
		if strings.Count(strings.TrimSpace(string(out)), "\n") > 0 {
			t.Errorf("%s: the refusal is one line, not the help:\n%s", lang, out)
		}
		if _, err := os.Stat(filepath.Join(fresh, "weather")); !os.IsNotExist(err) {
			t.Fatalf("%s: the refused new wrote %s/weather (%v)", lang, fresh, err)
		}
	}
}
