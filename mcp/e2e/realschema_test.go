package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// pyServer is a stdio server the FastMCP venv installed (mcp-server-time, mcp-server-git).
func pyServer(name string, args ...string) map[string]any {
	return map[string]any{"command": filepath.Join(serversDir(), ".venv", "bin", name), "args": args, "handshake_timeout": "90s"}
}

// TestPythonServersKeepEveryTool: real Python MCP servers whose output schemas hold $defs
// and $ref (mcp-server-time, mcp-server-git, a FastMCP server with nested and recursive
// pydantic models) keep all their tools through octet-mcp, none withheld, and answer
// through octet-host call with structured content their schemas accept. Wrapping an
// output schema used to leave its $defs behind, and the whole catalog was withdrawn.
func TestPythonServersKeepEveryTool(t *testing.T) {
	needFastMCP(t)
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	dir := bridgeDir(t, map[string]any{
		"time": pyServer("mcp-server-time", "--local-timezone", "UTC"),
		"git":  pyServer("mcp-server-git", "--repository", repo),
		"fast": fastMCPCmd(),
	})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true,"timeout_ms":90000}`,
		"time_get_current_time", `{"timezone":"Europe/Paris"}`,
		"time_convert_time", `{"source_timezone":"UTC","time":"12:00","target_timezone":"Asia/Tokyo"}`,
		"git_git_log", `{"repo_path":"`+repo+`"}`,
		"fast_tree", `{"depth":2}`,
		"fast_route", `{"name":"r","points":[{"x":0,"y":0},{"x":1,"y":2},{"x":0,"y":0}]}`)
	if len(lines) != 6 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	want := map[string]int{"time": 2, "git": 10, "fast": 7}
	for _, s := range statusLine(t, lines[0]).Servers {
		if s.State != "ready" || len(s.Withheld) != 0 || s.Detail != "" || len(s.Tools) < want[s.Name] {
			t.Errorf("%s: state %s, %d tools (want at least %d), withheld %v, detail %q", s.Name, s.State, len(s.Tools), want[s.Name], s.Withheld, s.Detail)
		}
	}
	if l := lines[1]; l.Error != nil || l.IsError || !strings.Contains(string(l.StructuredContent), `"timezone":"Europe/Paris"`) {
		t.Errorf("time_get_current_time: %s", l.raw)
	}
	if l := lines[2]; l.Error != nil || l.IsError || !strings.Contains(string(l.StructuredContent), `"time_difference":"+9.0h"`) {
		t.Errorf("time_convert_time: %s", l.raw)
	}
	if l := lines[3]; l.Error != nil || l.IsError || !strings.Contains(l.text(), "first") {
		t.Errorf("git_git_log: %s", l.raw)
	}
	if l := lines[4]; l.Error != nil || l.IsError || strings.Count(string(l.StructuredContent), `"label"`) != 7 {
		t.Errorf("fast_tree: want 7 nodes, got %s", l.raw)
	}
	if l := lines[5]; l.Error != nil || l.IsError || !strings.Contains(string(l.StructuredContent), `"closed":true`) || strings.Count(string(l.StructuredContent), `"start"`) != 2 {
		t.Errorf("fast_route: %s", l.raw)
	}
}
