package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
)

func testServer() map[string]any {
	return map[string]any{"command": filepath.Join(bin, "testserver")}
}

// status is the mcp_status line's decoded structured content.
type status struct {
	Revision int64
	Servers  []serverStatus
}

func statusLine(t *testing.T, l callLine) status {
	t.Helper()
	if l.Error != nil {
		t.Fatalf("mcp_status failed: %s", l.raw)
	}
	var s struct {
		Revision int64          `json:"catalog_revision"`
		Servers  []serverStatus `json:"servers"`
	}
	if err := jsonUnmarshal(l.StructuredContent, &s); err != nil {
		t.Fatalf("mcp_status: %v: %s", err, l.raw)
	}
	return status{s.Revision, s.Servers}
}

// TestListChangedIsANewCatalogRevision: a tool the server adds at run time
// (notifications/tools/list_changed) is published in the next catalog revision and
// callable; one it removes is withdrawn in the one after and no longer callable.
func TestListChangedIsANewCatalogRevision(t *testing.T) {
	dir := bridgeDir(t, map[string]any{"test": testServer()})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true}`,
		"test_add_tool", `{"name":"late"}`,
		"mcp_status", `{"wait":true,"min_revision":2}`,
		"test_late", `{}`,
		"test_remove_tool", `{"name":"late"}`,
		"mcp_status", `{"wait":true,"min_revision":3}`,
		"test_late", `{}`)
	if len(lines) != 7 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	first, added, removed := statusLine(t, lines[0]), statusLine(t, lines[2]), statusLine(t, lines[5])
	if first.Revision != 1 || slices.Contains(first.Servers[0].Tools, "test_late") {
		t.Errorf("first catalog: revision %d, tools %v; want revision 1 without test_late", first.Revision, first.Servers[0].Tools)
	}
	if added.Revision <= first.Revision || !slices.Contains(added.Servers[0].Tools, "test_late") {
		t.Errorf("after add_tool: revision %d, tools %v; want a later revision with test_late", added.Revision, added.Servers[0].Tools)
	}
	if got := lines[3].text(); got != "I am late" {
		t.Errorf("test_late: %s", lines[3].raw)
	}
	if removed.Revision <= added.Revision || slices.Contains(removed.Servers[0].Tools, "test_late") {
		t.Errorf("after remove_tool: revision %d, tools %v; want a later revision without test_late", removed.Revision, removed.Servers[0].Tools)
	}
	if lines[6].Error == nil {
		t.Errorf("test_late after its removal: want an error, got %s", lines[6].raw)
	}
	// Each changed list is one tools/replace: exactly one revision, never an unregister
	// and a register with a partial catalog between them.
	if added.Revision != first.Revision+1 || removed.Revision != added.Revision+1 {
		t.Errorf("revisions %d, %d, %d: want one per changed list", first.Revision, added.Revision, removed.Revision)
	}
}

// TestInvalidToolIsWithheldAlone: when the server lists a tool whose schema octet
// refuses, that tool is withheld with a diagnostic naming the server's tool and the JSON
// pointer of the fault; the server's other tools stay published and callable.
func TestInvalidToolIsWithheldAlone(t *testing.T) {
	dir := bridgeDir(t, map[string]any{"test": testServer()})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true}`,
		"test_break_catalog", `{}`,
		"mcp_status", `{"wait":true,"min_revision":2}`,
		"test_fail", `{"name":"x"}`,
		"test_broken", `{}`)
	if len(lines) != 5 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	before, after := statusLine(t, lines[0]), statusLine(t, lines[2])
	if len(before.Servers[0].Tools) == 0 {
		t.Fatalf("no tools before: %+v", before)
	}
	s := after.Servers[0]
	if len(s.Tools) != len(before.Servers[0].Tools) || len(s.Withheld) != 1 {
		t.Fatalf("after break_catalog: tools %v (before %v), withheld %+v; want the same tools and broken withheld", s.Tools, before.Servers[0].Tools, s.Withheld)
	}
	if w := s.Withheld[0]; w.Tool != "broken" || w.Pointer != "/inputSchema/properties/x/type" || !strings.Contains(w.Error, "type must be") {
		t.Errorf("withheld %+v; want broken at /inputSchema/properties/x/type", w)
	}
	if l := lines[3]; l.Error != nil {
		t.Errorf("another tool of the server is no longer callable: %s", l.raw)
	}
	if l := lines[4]; l.Error == nil {
		t.Errorf("the withheld tool was called: %s", l.raw)
	}
}

// TestCrashedServerRestarts: a server that dies mid-call fails that call as
// unavailable, is restarted with backoff (reported by mcp_status) and serves again.
func TestCrashedServerRestarts(t *testing.T) {
	dir := bridgeDir(t, map[string]any{"test": testServer()})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true}`,
		"test_crash", `{}`,
		"mcp_status", `{"wait":true,"min_restarts":1}`,
		"test_fail", `{"name":"after restart"}`)
	if len(lines) != 4 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	if e := lines[1].Error; e == nil || e.Code != -32002 || !strings.Contains(e.Message, "exited during the call") {
		t.Errorf("test_crash: want -32002 naming the exit, got %s", lines[1].raw)
	}
	s := statusLine(t, lines[2]).Servers[0]
	if s.State != "ready" || s.Restarts != 1 || !slices.Contains(s.Tools, "test_fail") {
		t.Errorf("after the crash: %+v; want ready, 1 restart, tools back", s)
	}
	// A tool error (isError) is a result with is_error, not a failed call.
	if l := lines[3]; l.Error != nil || !l.IsError || l.text() != "failed: after restart" {
		t.Errorf("test_fail: want an is_error result, got %s", l.raw)
	}
}

// TestHandshakeFailuresAreRefusedWithAClass: a command that does not exist, one that
// exits before the handshake and one that speaks another protocol version are refused,
// each with its class, and never restarted.
func TestHandshakeFailuresAreRefusedWithAClass(t *testing.T) {
	dir := bridgeDir(t, map[string]any{
		"missing": map[string]any{"command": filepath.Join(t.TempDir(), "no-such-server")},
		"quits":   map[string]any{"command": "true"},
		"talks":   map[string]any{"command": "sh", "args": []string{"-c", "echo this is not MCP; sleep 30"}, "handshake_timeout": "5s"},
	})
	lines, _, stderr := hostCall(t, dir, "mcp_status", `{"wait":true}`)
	if len(lines) != 1 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	want := map[string]string{"missing": "spawn_failed", "quits": "exited_during_handshake", "talks": "handshake_failed"}
	for _, s := range statusLine(t, lines[0]).Servers {
		if s.State != "refused" || s.Class != want[s.Name] || s.Restarts != 0 {
			t.Errorf("%s: state %s class %q restarts %d (%s); want refused, %s, 0", s.Name, s.State, s.Class, s.Restarts, s.Detail, want[s.Name])
		}
	}
}

// TestCancellationAndProgressReachTheServer: the server's progress arrives as
// $/progress, and the host's cancellation (a timeout) reaches the MCP server as
// notifications/cancelled, which the server observes.
func TestCancellationAndProgressReachTheServer(t *testing.T) {
	dir := bridgeDir(t, map[string]any{"test": testServer()})
	marker := filepath.Join(t.TempDir(), "cancelled")
	lines, _, stderr := hostCall(t, "--trace", "--timeout", "3s", dir,
		"mcp_status", `{"wait":true}`,
		"test_wait_cancel", `{"marker":"`+marker+`"}`)
	if len(lines) != 2 || lines[1].Error == nil || lines[1].Error.Kind != "timeout" {
		t.Fatalf("want the wait to time out; lines %v\n%s", lines, stderr)
	}
	if !strings.Contains(stderr, `"$/progress"`) || !strings.Contains(stderr, "waiting") {
		t.Errorf("no $/progress carrying the server's message in the trace:\n%s", stderr)
	}
	if b, err := os.ReadFile(marker); err != nil || string(b) != "cancelled" {
		t.Errorf("the MCP server did not see the cancellation (marker: %q, %v)", b, err)
	}
}

// TestStreamableHTTPServer: a server reached over streamable HTTP on loopback is
// bridged like a stdio one.
func TestStreamableHTTPServer(t *testing.T) {
	srv := exec.Command(filepath.Join(bin, "testserver"), "-http", "127.0.0.1:0")
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	dir := bridgeDir(t, map[string]any{"web": map[string]any{"url": strings.TrimSpace(url)}})
	lines, _, stderr := hostCall(t, dir, "mcp_status", `{"wait":true}`, "web_fail", `{"name":"over http"}`)
	if len(lines) != 2 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	if s := statusLine(t, lines[0]).Servers[0]; s.State != "ready" || s.Name != "web" {
		t.Errorf("http server: %+v", s)
	}
	if l := lines[1]; !l.IsError || l.text() != "failed: over http" {
		t.Errorf("web_fail: %s", l.raw)
	}
}

// TestMediaArtifacts: an image over the inline artifact bound goes through the scratch
// directory, a small one inline; both become image parts backed by verified artifacts, and
// a result without text gets a text part (octet results need one).
func TestMediaArtifacts(t *testing.T) {
	dir := bridgeDir(t, map[string]any{"test": testServer()})
	lines, _, stderr := hostCall(t, dir,
		"mcp_status", `{"wait":true}`,
		"test_big_image", `{"size":300000}`,
		"test_big_image", `{"size":64}`)
	if len(lines) != 3 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	for _, l := range lines[1:] {
		wantPart(t, l, "image")
		if !strings.Contains(l.text(), "media part") {
			t.Errorf("no summarising text part: %s", l.raw)
		}
	}
}

// TestSecretEnvFromTheBroker: a server with secret_env waits for mcp_connect, which asks
// the host's broker for the secret under its own call and starts the server with it in
// its environment; a server without one started on its own.
func TestSecretEnvFromTheBroker(t *testing.T) {
	dir := bridgeDir(t, map[string]any{
		"sec":   map[string]any{"command": filepath.Join(bin, "testserver"), "secret_env": map[string]string{"TEST_TOKEN": "mcp_token"}},
		"plain": testServer(),
	})
	script := filepath.Join(t.TempDir(), "secrets.toml")
	write(t, script, []byte("[secrets]\n\"mcp_token\" = \"s3cret-value\"\n"))
	lines, _, stderr := hostCall(t, "--script", script, dir,
		"mcp_status", `{"wait":true}`,
		"mcp_connect", `{"server":"sec"}`,
		"sec_env_len", `{"name":"TEST_TOKEN"}`,
		"plain_env_len", `{"name":"TEST_TOKEN"}`,
		"mcp_connect", `{"server":"nope"}`)
	if len(lines) != 5 {
		t.Fatalf("%d lines; stderr:\n%s", len(lines), stderr)
	}
	states := map[string]string{}
	for _, s := range statusLine(t, lines[0]).Servers {
		states[s.Name] = s.State
	}
	if states["sec"] != "needs_start" || states["plain"] != "ready" {
		t.Errorf("before mcp_connect: %v; want sec needs_start, plain ready", states)
	}
	for _, s := range statusLine(t, lines[1]).Servers {
		if s.Name == "sec" && s.State != "ready" {
			t.Errorf("after mcp_connect: sec is %s (%s)", s.State, s.Detail)
		}
	}
	if got := lines[2].text(); got != "len=12" {
		t.Errorf("the secret did not reach the server's environment: %s", lines[2].raw)
	}
	if got := lines[3].text(); got != "len=0" {
		t.Errorf("a server without secret_env saw the secret: %s", lines[3].raw)
	}
	if !lines[4].IsError || !strings.Contains(lines[4].text(), `no MCP server "nope"`) {
		t.Errorf("mcp_connect of an unknown server: %s", lines[4].raw)
	}
	if strings.Contains(stderr, "s3cret-value") {
		t.Error("the secret value appeared in octet-host's output")
	}
}

// TestServerLoggingReachesTheExtensionLog: an MCP notifications/message becomes a line
// of octet-mcp's log (its stderr, which the host keeps), with the server, logger and data.
func TestServerLoggingReachesTheExtensionLog(t *testing.T) {
	dir := bridgeDir(t, map[string]any{"test": testServer()})
	ctx := context.Background()
	h, err := reference.Open(ctx, reference.Options{Host: host.Options{StateDir: t.TempDir(), Workspace: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	ext, err := h.StartDir(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ext.CallTool(ctx, "mcp_status", json.RawMessage(`{"wait":true}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := ext.CallTool(ctx, "test_log", json.RawMessage(`{"name":"a-line-from-the-server"}`)); err != nil {
		t.Fatal(err)
	}
	logPath := ext.LogPath()
	h.Close()
	b, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "MCP server log") && strings.Contains(line, "a-line-from-the-server") &&
			strings.Contains(line, `"server":"test"`) && strings.Contains(line, `"level":"warn"`) {
			return
		}
	}
	t.Errorf("no warning line with the server's message in the extension log %s:\n%s", logPath, b)
}
