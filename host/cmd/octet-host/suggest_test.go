package main

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance/scaffold"
	"github.com/octet-kit/octet/host/internal/testext"
)

// TestTyposGetSuggestions types one near miss per kind of name and wants the intended name
// named in one line: a verb, a flag (not the whole help), a check, a bundle sub-verb.
func TestTyposGetSuggestions(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"calll"}, `unknown verb "calll"; did you mean "call"?`},
		{[]string{"call", "--stat", "x", "hello"}, "unknown flag --stat; did you mean --state?"},
		{[]string{"new", "--lnag", "go", "x"}, "unknown flag --lnag; did you mean --lang?"},
		{[]string{"certify", "--check", "handshake.manifest_ecko", "."}, `did you mean "handshake.manifest_echo"?`},
		{[]string{"bundle", "instal"}, `did you mean "install"?`},
	} {
		code, out, errOut := octetHost(t, "", c.args...)
		if code != exitStartup || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", c.args, code, c.want, out, errOut)
		}
		if lines := strings.Count(strings.TrimSpace(errOut), "\n") + 1; lines != 1 {
			t.Errorf("%v: %d lines on stderr, want the one with the suggestion:\n%s", c.args, lines, errOut)
		}
	}
	// Nothing close: the verbs are listed instead.
	if code, _, errOut := octetHost(t, "", "frobnicate"); code != exitStartup || strings.Contains(errOut, "did you mean") || !strings.Contains(errOut, "Verbs:") {
		t.Errorf("frobnicate: exit %d\n%s", code, errOut)
	}
}

// TestUnknownToolIsKindUnknownToolWithTheRealTools calls a real SDK extension (the Go
// hello-world example) with a mistyped tool: the extension refuses it on the wire, and the
// CLI classifies it as unknown_tool (as docs/host.md says), lists the tools it serves and
// names the nearest.
func TestUnknownToolIsKindUnknownToolWithTheRealTools(t *testing.T) {
	kit := scaffold.FindKit(".")
	e := newEnv(t)
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, filepath.Join(kit, "examples", "go", "hello-world"), "hello_wrld", "{}")
	var line struct {
		Error struct {
			Kind, Message, Suggestion string
			Tools                     []string
			Code                      int
		}
	}
	if err := json.Unmarshal([]byte(out), &line); err != nil || code != exitFailed {
		t.Fatalf("call: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if line.Error.Kind != "unknown_tool" || line.Error.Suggestion != "hello_world" || !slices.Equal(line.Error.Tools, []string{"hello_world"}) || line.Error.Code != -32602 {
		t.Fatalf("want kind unknown_tool, suggestion hello_world, tools [hello_world], code -32602; got %+v", line.Error)
	}
	if !strings.Contains(errOut, `did you mean "hello_world"?`) {
		t.Errorf("stderr does not suggest the tool:\n%s", errOut)
	}
}

// TestRequiredExtensionTypoSuggestsTheDiscoveredName: --require with a near miss of a
// discovered extension names it.
func TestRequiredExtensionTypoSuggestsTheDiscoveredName(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "weather"})
	code, _, errOut := octetHost(t, "quit\n", "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, "--require", "wether", dir)
	if code != exitStartup || !strings.Contains(errOut, `did you mean "weather"?`) {
		t.Fatalf("run --require wether: exit %d\n%s", code, errOut)
	}
}

// TestCertifyFoldsSkippedChecks: an extension other than the fixture skips the
// fixture-only checks; the text report folds them into one SKIP line with counts and
// reasons, and -v lists each.
func TestCertifyFoldsSkippedChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies an example")
	}
	dir := filepath.Join(scaffold.FindKit("."), "examples", "go", "hello-world")
	_, out, errOut := octetHost(t, "", "certify", "--check", "handshake.manifest_echo", "--check", "echo.sequential", "--check", "rpc.strict_json", dir)
	if n := strings.Count(out, "  SKIP  "); n != 1 || !strings.Contains(out, "SKIP  2 checks: 2 runs against the conformance fixture") {
		t.Fatalf("want one folded SKIP line for 2 checks, got %d:\n%s%s", n, out, errOut)
	}
	_, out, _ = octetHost(t, "", "certify", "-v", "--check", "handshake.manifest_echo", "--check", "echo.sequential", "--check", "rpc.strict_json", dir)
	if !strings.Contains(out, "SKIP  echo.sequential") || !strings.Contains(out, "SKIP  rpc.strict_json") || strings.Contains(out, "checks:") {
		t.Fatalf("-v must list each skipped check:\n%s", out)
	}
}
