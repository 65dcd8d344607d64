package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/reference"
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

// TestSettingsConsole: the run console's configure delivers a change to the running process
// (same process, next revision), refuses an invalid value before sending it and reports the
// extension's refusal; neither they nor a dry run change the settings in force.
func TestSettingsConsole(t *testing.T) {
	e := newEnv(t)
	dir := testext.WriteSettings(t, e.exts, "cfg")
	if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stdin, feed := io.Pipe()
	out, errOut := newWatchedBuffer(), newWatchedBuffer()
	exited := make(chan int, 1)
	go func() {
		exited <- runConsole([]string{"--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "cfg", dir}, stdin, out, errOut)
	}()
	defer feed.Close()
	out.waitFor(t, "NAME", time.Minute)
	// Each line waits for its answer: the console runs commands concurrently.
	for _, step := range []struct{ line, want string }{
		{"call show", "Hello/2/ rev 1"},
		{`configure cfg {"limit": 5, "greeting": "Yo"}`, `{"accepted":true,"configure":"cfg","dry_run":false,"revision":2}`},
		{"call show", "Yo/5/ rev 2"},
		{`configure cfg {"limit": 50}`, `"pointer":"/limit","rule":"maximum"},"revision":2}`},
		{`configure cfg {"limit": 5, "greeting": "refuse-me"}`, `"refused":["greeting \"refuse-me\" is refused","pick another"],"revision":2}`},
		{`configure --dry-run cfg {"limit": 6}`, `{"accepted":true,"configure":"cfg","dry_run":true,"revision":2}`},
		{`configure cfg {"limit": 7}`, `{"accepted":true,"configure":"cfg","dry_run":false,"revision":3}`},
		{"call show", "Hello/7/ rev 3"},
	} {
		io.WriteString(feed, step.line+"\n")
		out.waitFor(t, step.want, time.Minute)
	}
	if s := out.String(); strings.Contains(s, "/6/") || strings.Contains(s, "refuse-me/") || strings.Contains(s, "/50/") {
		t.Fatalf("a refused, invalid or dry-run value came into force:\n%s", s)
	}
	io.WriteString(feed, "quit\n")
	if code := <-exited; code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
}

// TestSettingsWatch: dev's watcher delivers a changed config file to the running extension
// on the next tick, and after the extension refuses a change it keeps the settings in force
// and tries again only when the file changes again.
func TestSettingsWatch(t *testing.T) {
	e := newEnv(t)
	dir := testext.WriteSettings(t, e.exts, "cfg")
	writeCfg := func(s string) {
		if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\n"+s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeCfg("limit = 2\n")
	load := func() (map[string]map[string]any, error) {
		c, err := admission.LoadConfig(e.config)
		return admission.MergeSettings(c, admission.Config{}), err
	}
	initial, _ := load()
	ctx := context.Background()
	rt, err := reference.Open(ctx, reference.Options{Host: host.Options{StateDir: e.state, Workspace: e.base, Settings: initial}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	ext, err := rt.StartDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	w := newSettingsWatch([]string{e.config}, load, rt.Host, []string{"cfg"}, initial, &log)
	show := func() string {
		raw, _, err := rt.CallTool(ctx, "show", []byte("{}"))
		if err != nil {
			t.Fatal(err)
		}
		s, _, _ := strings.Cut(string(raw), " pid ")
		return s
	}
	if w.check(ctx) {
		t.Fatal("an unchanged file was reported changed")
	}
	writeCfg("limit = 4\ngreeting = \"Hey\"\n")
	if !w.check(ctx) || !strings.Contains(show(), "Hey/4/ rev 2") {
		t.Fatalf("after the change: %s\n%s", show(), log.String())
	}
	writeCfg("limit = 4\ngreeting = \"refuse-me\"\n")
	if !w.check(ctx) || !strings.Contains(log.String(), `"refused":["greeting \"refuse-me\" is refused","pick another"]`) {
		t.Fatalf("refusal not reported:\n%s", log.String())
	}
	if got := show(); !strings.Contains(got, "Hey/4/ rev 2") {
		t.Fatalf("after the refusal: %s", got)
	}
	if v, rev := ext.Settings(); v["greeting"] != "Hey" || rev != 2 {
		t.Fatalf("host's settings in force: %v rev %d", v, rev)
	}
}
