package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/internal/testext"
)

// configureAnswer is one line `octet-host configure` printed.
type configureAnswer struct {
	Configure string
	HostPID   int `json:"host_pid"`
	Revision  int
	DryRun    bool `json:"dry_run"`
	Accepted  bool
	Refused   []string
	Error     *struct{ Kind, Pointer, Rule string }
}

func configureVerb(t *testing.T, state string, args ...string) (int, configureAnswer, string) {
	t.Helper()
	code, out, errOut := octetHost(t, "", append([]string{"configure", "--state", state}, args...)...)
	var a configureAnswer
	if out != "" {
		if strings.Count(out, "\n") != 1 || json.Unmarshal([]byte(out), &a) != nil {
			t.Fatalf("configure %v: want one JSON line, got %q (stderr %s)", args, out, errOut)
		}
	}
	return code, a, errOut
}

// TestConfigureVerbReachesRunningHost: a value the schema forbids is refused before start
// (validate and call name the key, pointer and rule); then `octet-host configure`, a process of its own, reaches
// an `octet-host run` process through its control socket and changes the settings of the
// extension it runs, in each SDK: a change comes into force in the same extension process
// (the revision counts on, no restart); a dry run, the extension's refusal and a value the
// schema forbids keep the settings in force and say why; without JSON the host reloads the
// edited config file. Once the host has quit, configure says no host runs.
func TestConfigureVerbReachesRunningHost(t *testing.T) {
	for _, lang := range testext.SettingsLanguages {
		t.Run(lang, func(t *testing.T) {
			e := newEnv(t)
			dir := testext.WriteSettingsIn(t, e.exts, "cfg", lang)
			// A bad value is refused before the extension starts, naming the key, pointer
			// and rule, offline by validate and at start.
			if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 42\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			const refusal = "extension cfg: setting limit refused: /limit: maximum: got 42, want 10 (settings maximum)"
			if code, out, _ := octetHost(t, "", "validate", "--config", e.config, dir); code != exitFailed || !strings.Contains(out, refusal) {
				t.Fatalf("validate a bad value: %d\n%s", code, out)
			}
			if code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir, "show", "{}"); code != exitStartup || !strings.Contains(out+errOut, "settings_refused: "+refusal) {
				t.Fatalf("start with a bad value: %d\n%s%s", code, out, errOut)
			}
			if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 2\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			h := startHostChild(t, "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "cfg", dir)
			show := func(want string) {
				t.Helper()
				before := strings.Count(h.output(), want)
				io.WriteString(h.stdin, "call show\n")
				eventually(t, time.Minute, "show prints "+want, func() bool { return strings.Count(h.output(), want) > before })
			}
			eventually(t, time.Minute, "the host is up", func() bool { return strings.Contains(h.output(), "NAME") })
			show("Hello/2/ rev 1")

			code, a, errOut := configureVerb(t, e.state, "cfg", `{"limit": 5, "greeting": "Yo"}`)
			if code != exitOK || !a.Accepted || a.Revision != 2 || a.Configure != "cfg" || a.HostPID != h.cmd.Process.Pid {
				t.Fatalf("configure: %d %+v %s", code, a, errOut)
			}
			show("Yo/5/ rev 2")
			if code, a, _ := configureVerb(t, e.state, "--dry-run", "cfg", `{"limit": 6}`); code != exitOK || !a.Accepted || !a.DryRun || a.Revision != 2 {
				t.Fatalf("dry run: %d %+v", code, a)
			}
			code, a, _ = configureVerb(t, e.state, "cfg", `{"limit": 5, "greeting": "refuse-me"}`)
			if code != exitFailed || a.Accepted || strings.Join(a.Refused, "|") != `greeting "refuse-me" is refused|pick another` || a.Revision != 2 {
				t.Fatalf("refusal: %d %+v", code, a)
			}
			code, a, _ = configureVerb(t, e.state, "cfg", `{"limit": 50}`)
			if code != exitFailed || a.Error == nil || a.Error.Kind != "settings_invalid" || a.Error.Pointer != "/limit" || a.Error.Rule != "maximum" || a.Revision != 2 {
				t.Fatalf("invalid value: %d %+v", code, a)
			}
			show("Yo/5/ rev 2")

			if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 7\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if code, a, errOut := configureVerb(t, e.state, "cfg"); code != exitOK || !a.Accepted || a.Revision != 3 {
				t.Fatalf("reload from the config: %d %+v %s", code, a, errOut)
			}
			show("Hello/7/ rev 3")
			if s := h.output(); strings.Contains(s, "/6/") || strings.Contains(s, "refuse-me/") || strings.Contains(s, "/50/") {
				t.Fatalf("a dry-run, refused or invalid value came into force:\n%s", s)
			}
			if code, _, errOut := configureVerb(t, e.state, "nope", `{}`); code != exitStartup || !strings.Contains(errOut, `none runs "nope"`) {
				t.Fatalf("unknown extension: %d %s", code, errOut)
			}

			io.WriteString(h.stdin, "quit\n")
			if err := h.cmd.Wait(); err != nil {
				t.Fatalf("host: %v\n%s", err, h.output())
			}
			if code, _, errOut := configureVerb(t, e.state, "cfg", `{"limit": 3}`); code != exitStartup || !strings.Contains(errOut, "no octet-host is running on") {
				t.Fatalf("after the host quit: %d %s", code, errOut)
			}
		})
	}
}

// TestControlSocketIsGuarded: the socket is this user's only (0600 in a 0700 directory); a
// request over the bound, malformed JSON, an unknown field and settings that are not an
// object are refused with their kind and the settings stay in force; a SIGKILLed host's
// socket left behind is skipped as not running.
func TestControlSocketIsGuarded(t *testing.T) {
	e := newEnv(t)
	dir := testext.WriteSettings(t, e.exts, "cfg")
	if err := os.WriteFile(e.config, []byte("[extensions.cfg.settings]\nlimit = 2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHostChild(t, "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "cfg", dir)
	eventually(t, time.Minute, "the host is up", func() bool { return strings.Contains(h.output(), "NAME") })
	sock := filepath.Join(e.state, "control", fmt.Sprint(h.cmd.Process.Pid)+".sock")
	for path, want := range map[string]os.FileMode{sock: 0o600, filepath.Dir(sock): 0o700} {
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: %v %v, want mode %v", path, fi.Mode(), err, want)
		}
	}
	ask := func(req []byte) map[string]any {
		t.Helper()
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		go c.Write(req) // the host may answer before reading an oversized request whole
		var out map[string]any
		if err := json.NewDecoder(c).Decode(&out); err != nil {
			t.Fatalf("answer to %.60q: %v", req, err)
		}
		return out
	}
	kind := func(a map[string]any) string {
		e, _ := a["error"].(map[string]any)
		s, _ := e["kind"].(string)
		return s
	}
	huge := append([]byte(`{"extension":"cfg","settings":{"greeting":"`), make([]byte, maxControlBytes)...)
	for i := range huge[44:] {
		huge[44+i] = 'x'
	}
	for req, want := range map[string]string{
		string(huge): "request_too_large",
		"{\"extension\": \"cfg\", \"settings\":\n":                  "bad_request",
		`{"extension":"cfg","setting":{"limit":3}}` + "\n":          "bad_request",
		`{"extension":"cfg","settings":[1]}` + "\n":                 "bad_request",
		`{"extension":"cfg","settings":"{\"limit\":3}"}` + "\n":     "bad_request",
		`{"extension":"c\u00e9<>&\\\"fg","settings":{}}` + "\n":     "no_extension",
		`{"extension":"cfg","settings":{"limit":"3\u0000"}}` + "\n": "settings_invalid",
	} {
		if got := kind(ask([]byte(req))); got != want {
			t.Errorf("request %.60q: %q, want %q", req, got, want)
		}
	}
	io.WriteString(h.stdin, "call show\n")
	eventually(t, time.Minute, "the settings in force", func() bool { return strings.Contains(h.output(), "Hello/2/ rev 1") })

	if err := h.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = h.cmd.Wait()
	if _, err := os.Stat(sock); err != nil {
		t.Fatalf("a killed host leaves its socket: %v", err)
	}
	if code, _, errOut := configureVerb(t, e.state, "cfg", `{"limit": 3}`); code != exitStartup || !strings.Contains(errOut, "no octet-host is running") {
		t.Fatalf("only a dead host's socket: %d %s", code, errOut)
	}
}
