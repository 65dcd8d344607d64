package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

func hostile(mode string) map[string]any {
	return map[string]any{"command": filepath.Join(bin, "hostile"), "args": []string{mode}, "handshake_timeout": "3s"}
}

// TestHostileServers: five servers that misbehave, each its own way, behind one bridge
// with a well-behaved one: each gets a classified status, and the good server's tools
// (and the flooding and lying servers' honest tools) keep working.
func TestHostileServers(t *testing.T) {
	dir := bridgeDir(t, map[string]any{
		"good": testServer(), "liar": hostile("liar"), "garbage": hostile("garbage"),
		"silent": hostile("silent"), "die": hostile("die"), "flood": hostile("flood"),
	})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true}`,
		"good_echo", `{"name":"still here"}`,
		"flood_ok", `{}`,
		"liar_ok", `{}`,
		"liar_lie", `{}`,
		"mcp_status", `{}`)
	if len(lines) != 6 {
		t.Fatalf("%d lines; stderr:\n%.4000s", len(lines), stderr)
	}
	byName := map[string]serverStatus{}
	for _, s := range statusLine(t, lines[5]).Servers {
		byName[s.Name] = s
	}
	for name, want := range map[string]struct{ state, class, detail string }{
		"garbage": {"refused", "handshake_failed", "invalid character"},
		"silent":  {"refused", "handshake_timeout", ""},
		"die":     {"refused", "exited_during_handshake", "exit status 7"},
		"good":    {"ready", "", ""},
		"flood":   {"ready", "", ""},
		"liar":    {"ready", "", ""},
	} {
		s := byName[name]
		if s.State != want.state || s.Class != want.class || !strings.Contains(s.Detail, want.detail) {
			t.Errorf("%s: state %s class %q detail %q; want %s %q with %q", name, s.State, s.Class, s.Detail, want.state, want.class, want.detail)
		}
	}
	// Dying during the handshake is reported with the exit status and the stderr tail,
	// not as "broken pipe".
	if d := byName["die"].Detail; !strings.Contains(d, "cannot open the database") {
		t.Errorf("die: detail %q lacks the server's last stderr line", d)
	}
	if byName["flood"].DroppedLogs == 0 {
		t.Errorf("flood: no log notifications dropped: %+v", byName["flood"])
	}
	if l := lines[1]; l.Error != nil || !strings.Contains(l.text(), "still here") {
		t.Errorf("good_echo: %s", l.raw)
	}
	if l := lines[2]; l.Error != nil || l.text() != "ok from flood" {
		t.Errorf("flood_ok: %s", l.raw)
	}
	if l := lines[3]; l.Error != nil || l.text() != "ok from liar" {
		t.Errorf("liar_ok: %s", l.raw)
	}
	// A result that contradicts the declared output schema never reaches the host as a
	// success.
	if l := lines[4]; l.Error == nil || !strings.Contains(l.Error.Message, "breaks its output_schema") {
		t.Errorf("liar_lie: want the output schema refusal, got %s", l.raw)
	}
}
