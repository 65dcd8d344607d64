package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// inspector runs MCP Inspector's CLI mode against octet-mcp-gateway DIRS over stdio
// and decodes the JSON it prints.
func inspector(t *testing.T, dirs []string, args ...string) map[string]any {
	t.Helper()
	// The 2.x launcher by path: the aliased 0.x (the matrix's) links the same bin name.
	cli := filepath.Join(serversDir(), "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	full := append([]string{cli, "--cli", filepath.Join(bin, "octet-mcp-gateway")}, dirs...)
	cmd := exec.Command("node", append(full, args...)...)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("mcp-inspector %v: %v\n%s%s", args, err, out, stderr)
	}
	// The CLI may print a line about the server it starts before the JSON.
	s := string(out)
	if i := strings.Index(s, "{"); i > 0 {
		s = s[i:]
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("mcp-inspector printed no JSON: %v\n%s", err, out)
	}
	return m
}

// TestInspectorCLIDrivesTheGateway: MCP Inspector (from npm) in CLI mode lists and calls
// the tools of a Go, a Python and a TypeScript example through octet-mcp-gateway.
func TestInspectorCLIDrivesTheGateway(t *testing.T) {
	needNPM(t)
	needKit(t)
	dirs := []string{exampleDir("go", "hello-world"), exampleDir("python", "typed-tools"), exampleDir("typescript", "fetch-many")}
	list := inspector(t, dirs, "--method", "tools/list")
	names := map[string]bool{}
	for _, tool := range list["tools"].([]any) {
		names[tool.(map[string]any)["name"].(string)] = true
	}
	for _, want := range []string{"hello_world", "area", "route", "fetch_many"} {
		if !names[want] {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	calls := []struct {
		tool string
		args []string
		want string
	}{
		{"hello_world", []string{"name=Ada"}, "Hello, Ada!"},
		{"area", []string{"width=2", "height=3"}, `"area":6`},
		{"fetch_many", []string{`items=["x","y"]`, "delay_ms=1"}, "record:y"},
	}
	for _, c := range calls {
		args := []string{"--method", "tools/call", "--tool-name", c.tool}
		for _, a := range c.args {
			args = append(args, "--tool-arg", a)
		}
		res := inspector(t, dirs, args...)
		raw, _ := json.Marshal(res)
		if !strings.Contains(string(raw), c.want) || res["isError"] == true {
			t.Errorf("%s: %s; want %s", c.tool, raw, c.want)
		}
	}
}
