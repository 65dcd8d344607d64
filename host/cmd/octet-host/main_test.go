package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

func TestMain(m *testing.M) {
	// The process-cleanup tests run the CLI as a child process of the test, to SIGKILL it.
	if os.Getenv(hostChildEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	code := m.Run()
	testext.Cleanup()
	os.Exit(code)
}

func octetHost(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	var code int
	if stdin != "" {
		code = runConsole(args[1:], strings.NewReader(stdin), &out, &errb)
	} else {
		code = run(args, &out, &errb)
	}
	return code, out.String(), errb.String()
}

type env struct {
	base, exts, state, config, global string
}

func newEnv(t *testing.T) *env {
	b := t.TempDir()
	e := &env{base: b, exts: filepath.Join(b, "exts"), state: filepath.Join(b, "state"), config: filepath.Join(b, "config.toml"), global: filepath.Join(b, "global")}
	t.Setenv("OCTET_TRUSTED_EXTENSIONS", "")
	return e
}

func TestEveryVerbHasHelpWithExamples(t *testing.T) {
	for name := range verbs {
		code, out, errOut := octetHost(t, "", name, "--help")
		if code != 0 || !strings.Contains(out+errOut, "Examples:") || !strings.Contains(out+errOut, "Usage: octet-host "+name) {
			t.Errorf("%s --help: code %d\n%s%s", name, code, out, errOut)
		}
	}
	if code, _, _ := octetHost(t, "", "frobnicate"); code != exitStartup {
		t.Errorf("unknown verb exit %d", code)
	}
}

func TestValidate(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "good"})
	if code, out, _ := octetHost(t, "", "validate", dir); code != 0 || !strings.HasPrefix(out, "ok: good 1.0.0 (API 0.4)") {
		t.Fatalf("valid: %d %q", code, out)
	}
	bad := testext.Write(t, e.exts, testext.Ext{Name: "bad", API: "0.3", Extra: "colour = \"red\"\n"})
	code, out, _ := octetHost(t, "", "validate", filepath.Join(bad, "extension.toml"))
	if code != 1 || !strings.Contains(out, "api_version: API 0.3 is a distinct wire") || !strings.Contains(out, "contributes.colour") || !strings.Contains(out, "[unknown_field]") {
		t.Fatalf("invalid: %d\n%s", code, out)
	}
	code, out, _ = octetHost(t, "", "validate", "--json", bad)
	var res struct {
		Valid       bool
		Diagnostics []struct{ File, Field, Rule, Message string }
	}
	if code != 1 || json.Unmarshal([]byte(out), &res) != nil || res.Valid || len(res.Diagnostics) < 2 || res.Diagnostics[0].File == "" {
		t.Fatalf("json: %d %s", code, out)
	}
	if code, _, _ := octetHost(t, "", "validate"); code != exitStartup {
		t.Fatalf("missing PATH exit %d", code)
	}
}

func TestCallExitCodesAndLines(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "fake"})
	common := []string{"call", "--state", e.state, "--config", e.config, "--workspace", e.base}
	code, out, errOut := octetHost(t, "", append(common, "--model", "acme/m1", dir, "echo", `{"name":"Ada"}`, "pid")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 2 || !strings.Contains(lines[0], `{\"name\":\"Ada\"}`) {
		t.Fatalf("call: %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = octetHost(t, "", append(common, dir, "fail", "rpc_error", "echo")...)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	if code != 1 || len(lines) != 3 || !strings.Contains(lines[0], `"is_error":true`) || !strings.Contains(lines[1], `"code":1234`) || !strings.Contains(lines[1], `"kind":"rpc"`) {
		t.Fatalf("failures: %d\n%s", code, out)
	}
	code, out, _ = octetHost(t, "", append(common, dir, "crash", `{"code":4}`)...)
	if code != 1 || !strings.Contains(out, `"kind":"transport"`) || !strings.Contains(out, "exited with code 4") {
		t.Fatalf("crash: %d\n%s", code, out)
	}
	code, out, _ = octetHost(t, "", append([]string{"call", "--timeout", "200ms", "--state", e.state, "--config", e.config}, dir, "slow", `{"ms":20000}`)...)
	if code != 1 || !strings.Contains(out, `"kind":"timeout"`) {
		t.Fatalf("timeout: %d\n%s", code, out)
	}
	broken := testext.Write(t, e.exts, testext.Ext{Name: "broken", Args: []string{"--exit-before=9"}})
	code, _, errOut = octetHost(t, "", append(common, broken, "echo")...)
	if code != exitStartup || !strings.Contains(errOut, "exited with code 9") || !strings.Contains(errOut, "failing on purpose") {
		t.Fatalf("start failure: %d\n%s", code, errOut)
	}
	code, _, errOut = octetHost(t, "", append(append(common, "--safe-mode"), dir, "echo")...)
	if code != exitStartup || !strings.Contains(errOut, "safe_mode") {
		t.Fatalf("safe mode: %d\n%s", code, errOut)
	}
	if code, _, _ := octetHost(t, "", append(common, dir, `{"x":1}`)...); code != exitStartup {
		t.Fatalf("args without tool accepted")
	}
}

func TestCallRecordThenInspect(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "rec"})
	code, _, errOut := octetHost(t, "", "call", "--record", "--state", e.state, "--config", e.config, dir, "echo", `{"v":1}`)
	if code != 0 || !strings.Contains(errOut, "recorded session session-") {
		t.Fatalf("record: %d %s", code, errOut)
	}
	code, out, _ := octetHost(t, "", "inspect", "--state", e.state)
	if code != 0 || !strings.Contains(out, "-rec") {
		t.Fatalf("inspect: %d %s", code, out)
	}
}

// --trace prints both directions of every frame to stderr, with the script's secret
// values redacted; the result line on stdout is redacted too (the echo tool returned it).
func TestCallTraceRedactsSecrets(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "tr"})
	sc := filepath.Join(t.TempDir(), "s.toml")
	os.WriteFile(sc, []byte("[secrets]\n\"api.token\" = \"trace-secret-77\"\n"), 0o644)
	code, out, errOut := octetHost(t, "", "call", "--trace", "--script", sc, "--state", e.state, "--config", e.config, dir, "echo", `{"v":"trace-secret-77"}`)
	if code != 0 || strings.Contains(out, "trace-secret-77") || !strings.Contains(out, `{\"v\":\"[redacted]\"}`) {
		t.Fatalf("call: %d %s %s", code, out, errOut)
	}
	dirs := map[string]int{}
	for _, l := range traceLines(t, errOut) {
		dirs[l.Direction]++
	}
	if dirs["host->ext"] < 2 || dirs["ext->host"] < 2 || strings.Contains(errOut, "trace-secret-77") {
		t.Fatalf("trace misses a direction or leaks the secret:\n%s", errOut)
	}
}

func TestListShowsGatesAndDiagnostics(t *testing.T) {
	e := newEnv(t)
	testext.Write(t, e.global, testext.Ext{Name: "plain"})
	testext.Write(t, e.global, testext.Ext{Name: "enabled"})
	testext.Write(t, e.global, testext.Ext{Name: "granted"})
	testext.Write(t, e.global, testext.Ext{Name: "envgrant"})
	testext.Write(t, e.global, testext.Ext{Name: "broken", API: "9"})
	proj := filepath.Join(e.base, "ws")
	testext.Write(t, filepath.Join(proj, ".octet", "extensions"), testext.Ext{Name: "projonly"})
	os.WriteFile(e.config, []byte(`enabled_extensions = ["enabled", "granted", "envgrant", "projonly"]
trusted_extensions = ["granted", "projonly"]
`), 0o600)
	t.Setenv("OCTET_TRUSTED_EXTENSIONS", "envgrant")
	args := []string{"list", "--json", "--global-dir", e.global, "--config", e.config, "--workspace", proj}
	state := func(args []string) map[string]string {
		code, out, errOut := octetHost(t, "", args...)
		if code != 0 {
			t.Fatalf("list: %d %s", code, errOut)
		}
		var res struct {
			Extensions []struct {
				Name      string
				Admission struct{ State string }
			}
			Diagnostics []struct{ Rule string }
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, x := range res.Extensions {
			m[x.Name] = x.Admission.State
		}
		return m
	}
	got := state(args)
	want := map[string]string{"plain": "disabled", "enabled": "untrusted", "granted": "admitted", "envgrant": "admitted", "broken": "invalid"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s (%v)", k, got[k], v, got)
		}
	}
	if _, ok := got["projonly"]; ok {
		t.Errorf("untrusted workspace's project extension listed")
	}
	got = state(append(args, "--trust-workspace"))
	if got["projonly"] != "untrusted" { // a bare persistent grant never covers a project extension
		t.Errorf("project extension with bare grant: %s", got["projonly"])
	}
	// A trusted project's config may enable, never trust.
	os.WriteFile(filepath.Join(proj, ".octet", "config.toml"), []byte("enabled_extensions = [\"plain\"]\ntrusted_extensions = [\"plain\"]\n"), 0o600)
	got = state(append(args, "--trust-workspace"))
	if got["plain"] != "untrusted" {
		t.Errorf("project config suggestion: plain is %s, want untrusted (enabled, no trust)", got["plain"])
	}
	if got = state(args); got["plain"] != "disabled" {
		t.Errorf("untrusted project's config was read: plain is %s", got["plain"])
	}
	got = state(append(args, "--safe-mode", "--full-access"))
	if got["granted"] != "safe_mode" {
		t.Errorf("safe mode: %v", got)
	}
	got = state(append(args, "--full-access"))
	if got["enabled"] != "admitted" || got["plain"] != "disabled" {
		t.Errorf("full access: %v", got)
	}
	code, out, _ := octetHost(t, "", "list", "--global-dir", e.global, "--config", e.config, "--workspace", proj)
	if code != 0 || !strings.Contains(out, "--trust-extension enabled") || !strings.Contains(out, "[api_version]") {
		t.Errorf("table: %s", out)
	}
}

func TestRunConsole(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "con"})
	stdin := "status\ncall echo {\"a\":1}\ncall nosuch\nreload con\ntools\nlogs con\ncommand con nope\nquit\n"
	code, out, errOut := octetHost(t, stdin, "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "con", dir)
	if code != 0 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"con   ready", `{\"a\":1}`, `"kind":"unknown_tool"`, "reloaded con: generation 2", "echo\tcon", "[con] fakeext: starting", `"kind":"not_registered"`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	bad := testext.Write(t, e.exts, testext.Ext{Name: "needed", Args: []string{"--exit-before=1"}, Tools: []string{"x"}})
	code, _, errOut = octetHost(t, "quit\n", "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "needed", dir, bad)
	if code != exitStartup || !strings.Contains(errOut, "required extension needed failed") {
		t.Fatalf("required: %d %s", code, errOut)
	}
}

// A Python tool typed by a TypedDict and a dataclass result has both schemas derived by
// the SDK; the run console's `tools NAME` shows them as the host holds them.
func TestRunConsoleShowsDerivedSchemas(t *testing.T) {
	e := newEnv(t)
	dir, err := filepath.Abs("../../../examples/python/typed-tools")
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := octetHost(t, "tools area\ntools nosuch\nquit\n", "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "typed-tools", dir)
	if code != 0 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	start := strings.Index(out, "{\n")
	end := strings.Index(out, "\n}\n")
	if start < 0 || end < start {
		t.Fatalf("no tool definition in\n%s", out)
	}
	var def struct {
		Parameters struct {
			Required   []string
			Properties map[string]map[string]any
		}
		OutputSchema struct {
			Required   []string
			Properties map[string]map[string]any
		} `json:"output_schema"`
	}
	if err := json.Unmarshal([]byte(out[start:end+2]), &def); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	if strings.Join(def.Parameters.Required, ",") != "width,height" || def.Parameters.Properties["width"]["minimum"] != 0.0 ||
		strings.Join(def.OutputSchema.Required, ",") != "area" || def.OutputSchema.Properties["area"]["type"] != "number" {
		t.Fatalf("derived schemas = %+v", def)
	}
	if !strings.Contains(out, `tools: no tool "nosuch"`) {
		t.Errorf("an unknown tool name was not reported:\n%s", out)
	}
}
