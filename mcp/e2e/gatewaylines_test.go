package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	mcpjsonrpc "github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawGateway is octet-mcp-gateway over stdio driven line by line.
type rawGateway struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startRawGateway(t *testing.T, args ...string) *rawGateway {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "octet-mcp-gateway"), append([]string{"--workspace", t.TempDir()}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); _ = cmd.Wait() })
	return &rawGateway{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// next reads the next response (notifications skipped).
func (g *rawGateway) next(t *testing.T) rpcAnswer {
	t.Helper()
	for {
		line, err := g.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("the gateway's stdout ended: %v (exited: %v)", err, g.cmd.ProcessState)
		}
		var a struct {
			rpcAnswer
			Method string `json:"method"`
		}
		if err := json.Unmarshal(line, &a); err != nil {
			t.Fatalf("not JSON from the gateway: %q", line)
		}
		if a.Method == "" {
			return a.rpcAnswer
		}
	}
}

func (g *rawGateway) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(g.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// TestGatewaySurvivesBadLines: every bad line gets its JSON-RPC error and the session
// goes on; a 100 MB line over a 1 MB bound is discarded without being held (the
// gateway's peak memory grows by a few MB at most). Before, the first bad line ended the
// gateway with exit status 1.
func TestGatewaySurvivesBadLines(t *testing.T) {
	g := startRawGateway(t, "--max-message", "1048576", exampleDir("go", "hello-world"))
	g.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if a := g.next(t); a.Error != nil || !strings.Contains(string(a.Result), `"2025-11-25"`) {
		t.Fatalf("initialize: %+v", a)
	}
	g.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	for _, c := range []struct {
		line string
		code int64
		id   string
		want string
	}{
		{`this is not json`, -32700, "null", "parse error"},
		{`{"jsonrpc":"2.0","id":2,"method":`, -32700, "null", "parse error"},
		{deep, -32700, "null", "deeper than 512"},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":` + strings.Repeat(`{"a":`, 600) + `1` + strings.Repeat(`}`, 600) + `}`, -32700, "null", "deeper"},
		{`42`, -32600, "null", "JSON object"},
		{`[{"jsonrpc":"2.0","id":4,"method":"ping"}]`, -32600, "null", "batches"},
		{`{"jsonrpc":"1.0","id":5,"method":"ping"}`, -32600, "5", "invalid request"},
		{`{"jsonrpc":"2.0","id":{"no":1},"method":"ping"}`, -32600, "null", "invalid request"},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"<&>\u00e9\",\"method\":\"ping\",\"params\":\"\\u0000\"}", 0, "", ""},
	} {
		g.send(t, c.line)
		a := g.next(t)
		if c.code == 0 {
			continue // whatever the SDK answers: the point is that the session goes on
		}
		if a.Error == nil || a.Error.Code != c.code || string(a.ID) != c.id || !strings.Contains(a.Error.Message, c.want) {
			t.Errorf("%.40q: got %+v id %s, want %d with id %s and %q", c.line, a.Error, a.ID, c.code, c.id, c.want)
		}
	}
	// 100 MB in one line, written in 1 MB pieces.
	before := peakRSS(t, g.cmd.Process.Pid)
	go func() {
		chunk := strings.Repeat("x", 1<<20)
		_, _ = io.WriteString(g.in, `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"pad":"`)
		for range 100 {
			if _, err := io.WriteString(g.in, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(g.in, "\"}}\n")
	}()
	if a := g.next(t); a.Error == nil || a.Error.Code != -32600 || !strings.Contains(a.Error.Message, "longer than") {
		t.Errorf("100 MB line: %+v", a.Error)
	}
	g.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
	if a := g.next(t); a.Error != nil || string(a.ID) != "7" || !strings.Contains(string(a.Result), `"hello_world"`) {
		t.Fatalf("tools/list after the bad lines: %+v %s", a.Error, a.Result)
	}
	// A few times the 1 MB bound at most, nowhere near the 100 MB.
	if after := peakRSS(t, g.cmd.Process.Pid); after-before > 8<<20 {
		t.Errorf("the gateway's peak RSS grew from %d MB to %d MB over a 100 MB line; want it bounded", before>>20, after>>20)
	} else {
		t.Logf("peak RSS %d MB before, %d MB after the 100 MB line", before>>20, after>>20)
	}
}

// peakRSS is a process's VmHWM in bytes (Linux).
func peakRSS(t *testing.T, pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	t.Skip("no VmHWM")
	return 0
}

// TestGatewayInvalidArgumentsByVersion: arguments that fail the tool's schema are a
// JSON-RPC -32602 error under 2025-06-18 and a tool result with isError naming the
// pointer under 2025-11-25 (SEP-1303).
func TestGatewayInvalidArgumentsByVersion(t *testing.T) {
	needKit(t)
	for _, v := range []string{"2025-06-18", "2025-11-25"} {
		cmd := exec.Command(filepath.Join(bin, "octet-mcp-gateway"), "--workspace", t.TempDir(), exampleDir("go", "hello-world"))
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "v", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: v})
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello_world", Arguments: map[string]any{"name": 5}})
		var we *mcpjsonrpc.Error
		switch {
		case v < "2025-11-25" && (!errors.As(err, &we) || we.Code != mcpjsonrpc.CodeInvalidParams):
			t.Errorf("%s: want -32602, got %v %v", v, res, err)
		case v >= "2025-11-25" && (err != nil || !res.IsError || !strings.Contains(resultText(res), "/name")):
			t.Errorf("%s: want isError naming /name, got %v %v", v, res, err)
		}
		cs.Close()
		cancel()
	}
}

// TestGatewaySendsNoBooleanSubschemas: the conformance fixture's schemas hold boolean
// subschemas; the gateway sends them as {} and {"not":{}} (but additionalProperties).
func TestGatewaySendsNoBooleanSubschemas(t *testing.T) {
	c := startGateway(t, false, exampleDir("go", "conformance-fixture"))
	tools := c.tools(t)
	if len(tools) == 0 {
		t.Fatal("no tools")
	}
	for name, tool := range tools {
		for what, s := range map[string]any{"inputSchema": tool.InputSchema, "outputSchema": tool.OutputSchema} {
			var v any
			raw, _ := json.Marshal(s)
			_ = json.Unmarshal(raw, &v)
			if at := booleanSchemaAt(v, ""); at != "" {
				t.Errorf("%s %s holds a boolean subschema at %s: %s", name, what, at, raw)
			}
		}
	}
}

// booleanSchemaAt is the pointer of the first boolean subschema under s, or "".
func booleanSchemaAt(s any, at string) string {
	m, ok := s.(map[string]any)
	if !ok {
		return ""
	}
	check := func(v any, p string) string {
		if _, isBool := v.(bool); isBool {
			return p
		}
		return booleanSchemaAt(v, p)
	}
	for _, k := range []string{"items", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"} {
		if v, ok := m[k]; ok {
			if p := check(v, at+"/"+k); p != "" {
				return p
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "prefixItems"} {
		arr, _ := m[k].([]any)
		for i, v := range arr {
			if p := check(v, at+"/"+k+"/"+strconv.Itoa(i)); p != "" {
				return p
			}
		}
	}
	for _, k := range []string{"properties", "patternProperties", "dependentSchemas", "$defs"} {
		sub, _ := m[k].(map[string]any)
		for name, v := range sub {
			if p := check(v, at+"/"+k+"/"+name); p != "" {
				return p
			}
		}
	}
	return ""
}
