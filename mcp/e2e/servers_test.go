package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFastMCPServerThroughOctetHost: a FastMCP server from PyPI behind octet-mcp: typed
// tools with their output schema (structured content), a raised error as a tool error,
// and progress.
func TestFastMCPServerThroughOctetHost(t *testing.T) {
	needFastMCP(t)
	dir := bridgeDir(t, map[string]any{"fast": fastMCPCmd()})
	lines, _, stderr := hostCall(t, "--trace", dir,
		"mcp_status", `{"wait":true}`,
		"fast_add", `{"a":2,"b":40}`,
		"fast_refuse", `{"reason":"no thanks"}`,
		"fast_count", `{"n":3}`,
		"fast_add", `{"a":"two"}`)
	if len(lines) != 5 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	if s := statusLine(t, lines[0]).Servers[0]; s.State != "ready" || len(s.Tools) != 7 {
		t.Fatalf("fastmcp: %+v", s)
	}
	if l := lines[1]; l.text() != "42" || !strings.Contains(string(l.StructuredContent), `"result":42`) {
		t.Errorf("fast_add: %s", l.raw)
	}
	if l := lines[2]; !l.IsError || !strings.Contains(l.text(), "no thanks") {
		t.Errorf("fast_refuse: want is_error with the reason, got %s", l.raw)
	}
	if l := lines[3]; l.text() != "counted 3" || strings.Count(stderr, `"$/progress"`) < 3 {
		t.Errorf("fast_count: %s; want 3 $/progress frames in the trace", l.raw)
	}
	// Arguments the server's own schema forbids are refused by the host before any call.
	if l := lines[4]; l.Error == nil || l.Error.Kind != "arguments_refused" {
		t.Errorf("fast_add with a string: want arguments_refused, got %s", l.raw)
	}
}

// TestFilesystemServerThroughOctetHost: the npm filesystem server behind octet-mcp lists
// and reads a directory it was given, and refuses a path outside it with its own error.
func TestFilesystemServerThroughOctetHost(t *testing.T) {
	needNPM(t)
	root := t.TempDir()
	write(t, filepath.Join(root, "note.txt"), []byte("written by the test"))
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(serversDir(), "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	dir := bridgeDir(t, map[string]any{"fs": map[string]any{"command": "node", "args": []string{script, root}}})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true}`,
		"fs_list_directory", `{"path":"`+root+`"}`,
		"fs_read_text_file", `{"path":"`+filepath.Join(root, "note.txt")+`"}`,
		"fs_read_text_file", `{"path":"/etc/hostname"}`)
	if len(lines) != 4 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	if s := statusLine(t, lines[0]).Servers[0]; s.State != "ready" || len(s.Tools) < 5 {
		t.Fatalf("filesystem: %+v", s)
	}
	if l := lines[1]; !strings.Contains(l.text(), "note.txt") || !strings.Contains(l.text(), "sub") {
		t.Errorf("fs_list_directory: %s", l.raw)
	}
	if l := lines[2]; !strings.Contains(l.text(), "written by the test") {
		t.Errorf("fs_read_text_file: %s", l.raw)
	}
	if l := lines[3]; !l.IsError || !strings.Contains(strings.ToLower(l.text()), "denied") {
		t.Errorf("fs_read_text_file outside the root: want the server's access denial as is_error, got %s", l.raw)
	}
}
