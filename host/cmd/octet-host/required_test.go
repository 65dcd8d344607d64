package main

import (
	"os"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// required_extensions in the config (and a trusted workspace's) stops `run` before any
// process starts when the extension is missing, disabled or untrusted, with its kind.
func TestRequiredExtensionsFromConfig(t *testing.T) {
	e := newEnv(t)
	testext.Write(t, e.global, testext.Ext{Name: "policy"})
	run := func(config string, args ...string) (int, string, string) {
		t.Helper()
		if err := os.WriteFile(e.config, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		return octetHost(t, "quit\n", append([]string{"run", "--state", e.state, "--config", e.config, "--global-dir", e.global}, args...)...)
	}
	for _, tc := range []struct{ name, config, want string }{
		{"missing", "required_extensions = [\"nosuch\"]\n", "required extension nosuch failed (required_missing)"},
		{"disabled", "required_extensions = [\"policy\"]\n", "required extension policy failed (required_disabled)"},
		{"untrusted", "required_extensions = [\"policy\"]\nenabled_extensions = [\"policy\"]\n", "required extension policy failed (required_untrusted)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := run(tc.config)
			if code != exitStartup || !strings.Contains(errOut, tc.want) || strings.Contains(out, "ready") {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
			}
		})
	}
	// Enabled and trusted: it starts, and --require adds to the config's list.
	code, out, errOut := run("required_extensions = [\"policy\"]\nenabled_extensions = [\"policy\"]\ntrusted_extensions = [\"policy\"]\n")
	if code != 0 || !strings.Contains(out, "policy") || !strings.Contains(out, "ready") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
	code, _, errOut = run("enabled_extensions = [\"policy\"]\ntrusted_extensions = [\"policy\"]\n", "--require", "other")
	if code != exitStartup || !strings.Contains(errOut, "required extension other failed (required_missing)") {
		t.Fatalf("--require: exit %d %s", code, errOut)
	}
}

// Two enabled owners: `run` stops before starting either and names both.
func TestRunRefusesSecondOwner(t *testing.T) {
	e := newEnv(t)
	a := testext.Write(t, e.exts, testext.Ext{Name: "owner-a", Extra: "[session]\nowner = true\n"})
	b := testext.Write(t, e.exts, testext.Ext{Name: "owner-b", Tools: []string{"other"}, Extra: "[session]\nowner = true\n"})
	code, out, errOut := octetHost(t, "quit\n", "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, a, b)
	if code != exitStartup || !strings.Contains(errOut, "startup stopped (owner_conflict): extensions owner-a and owner-b both declare [session] owner = true") {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}

// The operator's denied_tools keep a tool out of the model's catalog: `call` is refused
// with kind tool_not_allowed before anything is sent.
func TestDeniedToolsRefuseCall(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "den"})
	if err := os.WriteFile(e.config, []byte("denied_tools = [\"den/*\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "echo", `{"a":1}`)
	if code == 0 || !strings.Contains(out+errOut, `"kind":"tool_not_allowed"`) || !strings.Contains(out+errOut, `"reason":"denied"`) {
		t.Fatalf("exit %d\nstdout: %s\nstderr: %s", code, out, errOut)
	}
}
