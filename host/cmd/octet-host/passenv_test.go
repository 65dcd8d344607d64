package main

import (
	"os"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// A grant that is not a variable name is refused before anything starts, on the command
// line and in the config file (issue 19 finding 6: --pass-env 'BAD=NAME' was accepted).
func TestPassEnvRefusesAnInvalidName(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "fake"})
	for _, verb := range []string{"call", "run"} {
		stdin := ""
		if verb == "run" {
			stdin = "quit\n"
		}
		args := []string{verb, "--state", e.state, "--config", e.config, "--pass-env", "BAD=NAME", dir}
		if verb == "call" {
			args = append(args, "echo", "{}")
		}
		code, out, errOut := octetHost(t, stdin, args...)
		if code != exitStartup || !strings.Contains(errOut, `"BAD=NAME" is not an environment variable name`) {
			t.Errorf("%s --pass-env BAD=NAME: exit %d\n%s\n%s", verb, code, out, errOut)
		}
	}
	if err := os.WriteFile(e.config, []byte(`pass_env = ["OK", "BAD=NAME"]`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "echo", "{}")
	if code == 0 || !strings.Contains(errOut, `pass_env[1]: "BAD=NAME" is not an environment variable name`) {
		t.Errorf("config pass_env: exit %d\n%s\n%s", code, out, errOut)
	}
}
