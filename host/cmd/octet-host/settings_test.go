package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// TestSettingsValidateAndCall: validate checks the operator's settings offline with the
// workspace's over the user's; call refuses a bad value before start with the extension, key,
// pointer and rule named, and delivers good ones with the schema's defaults.
func TestSettingsValidateAndCall(t *testing.T) {
	e := newEnv(t)
	dir := testext.WriteSettings(t, e.exts, "cfg")
	ws := filepath.Join(e.base, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".octet"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(e.config, "[extensions.cfg.settings]\nlimit = 42\n")
	code, out, _ := octetHost(t, "", "validate", "--config", e.config, dir)
	if code != exitFailed || !strings.Contains(out, "extensions.cfg.settings: extension cfg: setting limit refused: /limit:") || !strings.Contains(out, "(settings maximum) [settings]") {
		t.Fatalf("validate bad user value: %d\n%s", code, out)
	}
	write(filepath.Join(ws, ".octet", "config.toml"), "[extensions.cfg.settings]\nlimit = 4\n")
	if code, out, _ := octetHost(t, "", "validate", "--config", e.config, "--workspace", ws, dir); code != exitOK {
		t.Fatalf("validate with the workspace's value over the user's: %d\n%s", code, out)
	}
	code, out, errOut := octetHost(t, "", "call", "--config", e.config, "--state", e.state, "--workspace", ws, dir, "show", "{}")
	if code != exitStartup || !strings.Contains(out+errOut, "settings_refused: extension cfg: setting limit refused: /limit:") {
		t.Fatalf("call with an untrusted workspace uses the user's bad value: %d\n%s%s", code, out, errOut)
	}
	write(e.config, "trusted_workspaces = ["+strconv.Quote(ws)+"]\n[extensions.cfg.settings]\nlimit = 42\n")
	code, out, errOut = octetHost(t, "", "call", "--config", e.config, "--state", e.state, "--workspace", ws, dir, "show", "{}")
	if code != exitOK || !strings.Contains(out, "Hello/4/ rev 1") {
		t.Fatalf("call in the trusted workspace: %d\n%s%s", code, out, errOut)
	}
}
