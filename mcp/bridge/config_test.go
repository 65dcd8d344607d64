package bridge

import (
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTool shortens the MCP tool type in the tests.
type mcpTool = mcp.Tool

func TestParseConfigAcceptsBothTransports(t *testing.T) {
	c, err := ParseConfig([]byte(`{"servers":{
		"every":{"command":"node","args":["x.js"],"env":{"A":"1"},"secret_env":{"TOKEN":"mcp_token"},"handshake_timeout":"5s"},
		"web":{"url":"http://127.0.0.1:8080/mcp"},
		"six":{"url":"http://[::1]:9/mcp"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Names(), ","); got != "every,six,web" {
		t.Errorf("names %s", got)
	}
	if s := c.Servers["every"]; s.handshake != 5*time.Second || s.ProtocolVersion != DefaultProtocolVersion {
		t.Errorf("every: %+v", s)
	}
	if s := c.Servers["web"]; s.handshake != 20*time.Second {
		t.Errorf("web: default handshake %v", s.handshake)
	}
}

// TestParseConfigRefusals: each bad configuration is refused with a message naming the
// server and field.
func TestParseConfigRefusals(t *testing.T) {
	for _, c := range []struct{ cfg, want string }{
		{`{"servers":{"a":{"command":"x","colour":"red"}}}`, `unknown field "colour"`},
		{`{"servers":{"Bad":{"command":"x"}}}`, "servers.Bad: a server name must match"},
		{`{"servers":{"a":{}}}`, "servers.a: needs command (stdio) or url"},
		{`{"servers":{"a":{"command":"x","url":"http://127.0.0.1/"}}}`, "servers.a: has both command and url"},
		{`{"servers":{"a":{"url":"http://10.0.0.1/mcp"}}}`, `servers.a.url: "http://10.0.0.1/mcp": host "10.0.0.1" is not loopback`},
		{`{"servers":{"a":{"url":"http://example.com/mcp"}}}`, "is not loopback"},
		{`{"servers":{"a":{"url":"ftp://127.0.0.1/"}}}`, "scheme must be http or https"},
		{`{"servers":{"a":{"url":"http://127.0.0.1/","args":["x"]}}}`, "apply to a command, not a url"},
		{`{"servers":{"a":{"command":"x","env":{"BAD=":"1"}}}}`, `servers.a.env: "BAD=" is not an environment variable name`},
		{`{"servers":{"a":{"command":"x","secret_env":{"T":"no spaces"}}}}`, `servers.a.secret_env.T: "no spaces" is not a secret name`},
		{`{"servers":{"a":{"command":"x","handshake_timeout":"soon"}}}`, `servers.a.handshake_timeout: "soon" is not a positive duration`},
		{`{"servers":{}} {}`, "data after the JSON object"},
	} {
		_, err := ParseConfig([]byte(c.cfg))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.cfg, err, c.want)
		}
	}
}

func TestToolNameMapsToOctetNames(t *testing.T) {
	for in, want := range map[string]string{"echo": "fs_echo", "get-sum": "fs_get-sum", "files.read/all": "fs_files_read_all"} {
		if got := ToolName("fs", in); got != want {
			t.Errorf("ToolName(fs, %q) = %q, want %q", in, got, want)
		}
	}
}

// TestConvertWithholdsOneTool: one bad tool is withheld alone, with its pointer and a
// message naming it; the good tool of the same list is still converted.
func TestConvertWithholdsOneTool(t *testing.T) {
	b := &Bridge{}
	u := &upstream{b: b, name: "s"}
	ok := &mcpTool{Name: "fine", InputSchema: map[string]any{"type": "object"}}
	for _, c := range []struct {
		bad       *mcpTool
		ptr, want string
	}{
		{&mcpTool{Name: "bad", InputSchema: map[string]any{"type": "no-such-type"}}, "/inputSchema/type", `tools[1] "bad": `},
		{&mcpTool{Name: "re", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"pattern": "(("}}}}, "/inputSchema/properties/x/pattern", "pattern"},
		{&mcpTool{Name: "fine", InputSchema: map[string]any{"type": "object"}}, "/name", `octet name "s_fine" is also the name of tool "fine"`},
		{&mcpTool{Name: "a.b", InputSchema: map[string]any{"type": "object"}}, "", ""},
		{&mcpTool{Name: strings.Repeat("x", 70), InputSchema: map[string]any{"type": "object"}}, "/name", "is not a valid tool name"},
		{&mcpTool{Name: "long", Description: strings.Repeat("é", 4097), InputSchema: map[string]any{"type": "object"}}, "/description", "description is 4097 characters"},
		{&mcpTool{Name: "out", InputSchema: map[string]any{"type": "object"}, OutputSchema: []int{1}}, "/outputSchema", "outputSchema is not a JSON object"},
		{&mcpTool{Name: "dangling", InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{"$ref": "#/$defs/Nope"}}, "/outputSchema", "Nope"},
	} {
		defs, names, withheld, err := b.convert(u, []*mcpTool{ok, c.bad})
		if err != nil {
			t.Fatalf("%s: the list was refused as a whole: %v", c.bad.Name, err)
		}
		if c.want == "" {
			if len(withheld) != 0 || len(defs) != 2 || names["s_a_b"] != "a.b" {
				t.Errorf("%s: %v %v", c.bad.Name, withheld, names)
			}
			continue
		}
		if len(defs) != 1 || names["s_fine"] != "fine" {
			t.Errorf("%s: the good tool was not kept: %v", c.bad.Name, names)
		}
		if len(withheld) != 1 || withheld[0].Tool != c.bad.Name || !strings.HasPrefix(withheld[0].Pointer, c.ptr) || !strings.Contains(withheld[0].Error, c.want) {
			t.Errorf("%s: withheld %+v, want tool %s at %s with %q", c.bad.Name, withheld, c.bad.Name, c.ptr, c.want)
		}
	}
}

func TestBackoffIsFullJitterUnderTheCap(t *testing.T) {
	for n := 1; n <= 40; n++ {
		ceil := backoffBase << min(n-1, 16)
		if ceil > backoffCap || ceil <= 0 {
			ceil = backoffCap
		}
		for range 50 {
			if d := backoff(n); d < 0 || d > ceil {
				t.Fatalf("backoff(%d) = %v, outside [0, %v]", n, d, ceil)
			}
		}
	}
}

func TestWithErrorMarker(t *testing.T) {
	s := WithErrorMarker(map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})
	if s["$schema"] != "http://json-schema.org/draft-07/schema#" {
		t.Errorf("$schema not hoisted: %v", s)
	}
	alts := s["anyOf"].([]any)
	if _, has := alts[0].(map[string]any)["$schema"]; has || len(alts) != 2 {
		t.Errorf("anyOf %v", alts)
	}
}

// TestParseConfigReportsEveryError: a file with several problems gets all of them, one
// a line, in server and field order.
func TestParseConfigReportsEveryError(t *testing.T) {
	_, err := ParseConfig([]byte(`{"servers":{
		"Bad":{"command":"x"},
		"b":{},
		"c":{"url":"http://10.0.0.1/mcp","env":{"E":"1"}},
		"d":{"command":"x","env":{"A-B":"1","C=D":"2"},"secret_env":{"T":"no spaces"},"handshake_timeout":"-1s"}}}`))
	if err == nil {
		t.Fatal("accepted")
	}
	lines := strings.Split(err.Error(), "\n")
	want := []string{
		"servers.Bad: a server name must match",
		"servers.b: needs command (stdio) or url",
		`servers.c.url: "http://10.0.0.1/mcp": host "10.0.0.1" is not loopback`,
		"servers.c: args, env, secret_env and dir apply to a command",
		`servers.d.env: "A-B" is not an environment variable name`,
		`servers.d.env: "C=D" is not an environment variable name`,
		`servers.d.secret_env.T: "no spaces" is not a secret name`,
		`servers.d.handshake_timeout: "-1s" is not a positive duration`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d problems reported, want %d:\n%s", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d: %q, want it to start with %q", i, lines[i], w)
		}
	}
}
