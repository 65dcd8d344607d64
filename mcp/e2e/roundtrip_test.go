package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastMCPCmd configures the FastMCP server; importing FastMCP takes seconds on a loaded
// machine, hence the longer handshake bound.
func fastMCPCmd() map[string]any {
	return map[string]any{"command": filepath.Join(serversDir(), ".venv", "bin", "python"), "args": []string{filepath.Join(serversDir(), "fastmcp_server.py")},
		"handshake_timeout": "90s"}
}

// direct connects the MCP Go SDK client straight to a server command, with the
// capabilities octet-mcp declares (elicitation, nothing else), so a server that lists
// tools by client capability lists the same ones to both.
func direct(t *testing.T, name string, args ...string) *mcp.ClientSession {
	t.Helper()
	opts := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "octet-e2e-direct", Version: "1"}, opts).Connect(context.Background(),
		&mcp.CommandTransport{Command: exec.Command(name, args...)}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// waitTools lists the gateway's tools until every name in want is there, waking on each
// tools/list_changed (the bridge publishes once its servers are up).
func (c *client) waitTools(t *testing.T, want ...string) map[string]*mcp.Tool {
	t.Helper()
	deadline := time.After(120 * time.Second)
	for {
		tools := c.tools(t)
		missing := false
		for _, w := range want {
			if _, ok := tools[w]; !ok {
				missing = true
			}
		}
		if !missing {
			return tools
		}
		select {
		case <-c.changed:
		case <-deadline:
			var status string
			if _, ok := tools["mcp_status"]; ok {
				status = resultText(c.call(t, "mcp_status", map[string]any{}))
			}
			t.Fatalf("tools %v never appeared; have %v; mcp_status: %s", want, slices.Sorted(mapsKeys(tools)), status)
		}
	}
}

// TestRoundTrip: MCP server → octet-mcp → octet host → octet-mcp-gateway → MCP client
// preserves the tools (names prefixed, descriptions, input and output schemas), results
// (text, images byte for byte, structured content) and errors (tool errors as isError
// with the server's text), compared with the same client talking to the servers directly.
func TestRoundTrip(t *testing.T) {
	needNPM(t)
	needFastMCP(t)
	cmd, args := everythingCmd()
	dir := bridgeDir(t, map[string]any{"every": map[string]any{"command": cmd, "args": args}, "fast": fastMCPCmd()})
	gw := startGateway(t, false, dir)
	every := direct(t, cmd, args...)
	fast := direct(t, fastMCPCmd()["command"].(string), fastMCPCmd()["args"].([]string)...)

	for prefix, cs := range map[string]*mcp.ClientSession{"every": every, "fast": fast} {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, tool := range res.Tools {
			want = append(want, prefix+"_"+tool.Name)
		}
		sort.Strings(want)
		got := gw.waitTools(t, want...)
		for _, tool := range res.Tools {
			g := got[prefix+"_"+tool.Name]
			if g.Description != tool.Description && g.Description != tool.Title {
				t.Errorf("%s: description %q, want %q", g.Name, g.Description, tool.Description)
			}
			if !sameJSON(t, g.InputSchema, tool.InputSchema) {
				t.Errorf("%s: inputSchema differs:\n got %s\nwant %s", g.Name, js(g.InputSchema), js(tool.InputSchema))
			}
			if (tool.OutputSchema != nil) != (g.OutputSchema != nil) || (tool.OutputSchema != nil && !sameJSON(t, g.OutputSchema, tool.OutputSchema)) {
				t.Errorf("%s: outputSchema differs:\n got %s\nwant %s", g.Name, js(g.OutputSchema), js(tool.OutputSchema))
			}
		}
	}

	calls := []struct {
		cs         *mcp.ClientSession
		prefix     string
		tool, args string
	}{
		{every, "every", "echo", `{"message":"round trip"}`},
		{every, "every", "get-sum", `{"a":20,"b":22}`},
		{every, "every", "get-tiny-image", `{}`},
		{every, "every", "get-structured-content", `{"location":"New York"}`},
		{fast, "fast", "add", `{"a":2,"b":40}`},
		{fast, "fast", "shout", `{"text":"octet"}`},
		{fast, "fast", "refuse", `{"reason":"no thanks"}`},
	}
	for _, c := range calls {
		want, err := c.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: json.RawMessage(c.args)})
		if err != nil {
			t.Fatalf("direct %s: %v", c.tool, err)
		}
		got := gw.call(t, c.prefix+"_"+c.tool, json.RawMessage(c.args))
		if got.IsError != want.IsError {
			t.Errorf("%s: isError %v, direct %v", c.tool, got.IsError, want.IsError)
		}
		if g, w := contentOf(got), contentOf(want); !slices.Equal(g, w) {
			t.Errorf("%s: content differs:\n got %q\nwant %q", c.tool, g, w)
		}
		if !sameJSON(t, got.StructuredContent, want.StructuredContent) {
			t.Errorf("%s: structuredContent %s, direct %s", c.tool, js(got.StructuredContent), js(want.StructuredContent))
		}
	}
}

// contentOf is a result's text and media parts as comparable strings (media by type,
// MIME type and bytes).
func contentOf(r *mcp.CallToolResult) []string {
	var out []string
	for _, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			out = append(out, "text:"+c.Text)
		case *mcp.ImageContent:
			out = append(out, "image:"+c.MIMEType+":"+string(bytes.Clone(c.Data)))
		case *mcp.AudioContent:
			out = append(out, "audio:"+c.MIMEType+":"+string(c.Data))
		}
	}
	return out
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sameJSON compares two values as JSON documents.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	var x, y any
	_ = json.Unmarshal([]byte(js(a)), &x)
	_ = json.Unmarshal([]byte(js(b)), &y)
	return js(x) == js(y)
}
