package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The compatibility matrix: real MCP clients (pinned in mcp/testdata/servers) drive
// octet-mcp-gateway in front of a Go, a Python and a TypeScript example, and real MCP
// servers run behind octet-mcp. Every cell is what this run observed; the table is
// logged and, when OCTET_MCP_MATRIX names a file, written there (go run mage.go
// mcpMatrix renders it into docs/mcp.md).

// matrixPlan is what every client does: a valid and an invalid call, structured content
// against an outputSchema (area), progress (fetch_many), a call the client cancels and
// one after it on the same session (the gateway settled the cancelled octet call), and an
// input request the gateway asks the client by elicitation (the Go fixture's ask).
const matrixPlan = `[{"tool":"hello_world","args":{"name":"Ada"}},{"tool":"hello_world","args":{"name":5}},` +
	`{"tool":"area","args":{"width":2,"height":3}},{"tool":"fetch_many","args":{"items":["x","y"],"delay_ms":50},"progress":true},` +
	`{"tool":"fetch_many","args":{"items":["a","b","c","d"],"delay_ms":1500},"progress":true,"cancel":true},` +
	`{"tool":"fetch_many","args":{"items":["z"],"delay_ms":1}},` +
	`{"tool":"ask","args":{"kind":"input","prompt":"Your name?"},"elicit":"Grace"}]`

// planCalls is the number of calls in matrixPlan.
const planCalls = 7

// observed is what a client driver printed.
type observed struct {
	Tools []obsTool `json:"tools"`
	Calls []obsCall `json:"calls"`
}

type obsTool struct {
	Name         string `json:"name"`
	OutputSchema bool   `json:"output_schema"`
}

type obsCall struct {
	Tool       string          `json:"tool"`
	IsError    bool            `json:"is_error"`
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	Progress   int             `json:"progress"`
	Error      *obsError       `json:"error"`
	// Cancelled: the client cancelled the call after its first progress notification and
	// the call ended without a result (-1: the client cannot cancel).
	Cancelled int `json:"cancelled"`
	// Elicited: elicitation requests the client answered during the call (-1: the client
	// declares no elicitation capability).
	Elicited int `json:"elicited"`
}

type obsError struct {
	Code    any    `json:"code"`
	Message string `json:"message"`
}

func matrixDirs() []string {
	return []string{exampleDir("go", "hello-world"), exampleDir("python", "typed-tools"), exampleDir("typescript", "fetch-many"),
		exampleDir("go", "conformance-fixture")}
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// cells judges an observation: list, valid call, invalid call (isError naming the
// pointer), structured content with outputSchema, progress, cancellation, elicitation.
func cells(o observed) []string {
	listed := map[string]bool{}
	for _, t := range o.Tools {
		listed[t.Name] = t.Name != "area" || t.OutputSchema
	}
	list := listed["hello_world"] && listed["area"] && listed["fetch_many"] && listed["route"] && listed["ask"]
	c := o.Calls
	if len(c) != planCalls {
		return []string{mark(list), "✗", "✗", "✗", "✗", "✗", "✗"}
	}
	valid := c[0].Error == nil && !c[0].IsError && c[0].Text == "Hello, Ada!"
	invalid := c[1].Error == nil && c[1].IsError && strings.Contains(c[1].Text, "/name")
	var sc bytes.Buffer
	_ = json.Compact(&sc, c[2].Structured)
	structured := c[2].Error == nil && !c[2].IsError && strings.Contains(sc.String(), `"area":6`)
	// The gateway writes a call's progress before its result (TestGatewayProgressBeforeResult
	// checks the wire), but SDK clients may run their progress handlers asynchronously, so a
	// client-side count at the result is only required to be positive.
	progress := mark(c[3].Error == nil && strings.Contains(c[3].Text, "record:y") && c[3].Progress > 0)
	if c[3].Progress < 0 && c[3].Error == nil && strings.Contains(c[3].Text, "record:y") {
		progress = "— (call ✓; the client asks for no progress)"
	}
	// Cancelled: the client saw its cancellation, no result, and the next call on the same
	// session answered.
	after := c[5].Error == nil && !c[5].IsError && strings.Contains(c[5].Text, "record:z")
	cancelled := mark(c[4].Cancelled == 1 && c[4].Text == "" && after)
	if c[4].Cancelled < 0 {
		cancelled = "— (the client cannot cancel a call)"
	}
	var ans bytes.Buffer
	_ = json.Compact(&ans, c[6].Structured)
	elicited := mark(c[6].Error == nil && c[6].Elicited == 1 && strings.Contains(ans.String(), `"answer":"Grace"`))
	if c[6].Elicited < 0 && c[6].Error == nil && strings.Contains(ans.String(), `"answer":null`) {
		elicited = "— (no elicitation capability; the input request is cancelled, call ✓)"
	}
	return []string{mark(list), mark(valid), mark(invalid), mark(structured), progress, cancelled, elicited}
}

func runDriver(t *testing.T, name string, args ...string) observed {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = serversDir()
	out, err := cmd.Output()
	var o observed
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Errorf("%s: %v\n%s\n%.2000s", filepath.Base(name), err, out, stderr)
		return o
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &o); err != nil {
		t.Errorf("%s printed no JSON: %v\n%s", filepath.Base(name), err, out)
	}
	return o
}

// goClient runs the plan with the MCP Go SDK client on transport tr.
func goClient(t *testing.T, tr mcp.Transport) observed {
	t.Helper()
	var o observed
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var progress, elicited atomic.Int64
	firstProgress := make(chan struct{}, 64)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "octet-matrix-go", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			progress.Add(1)
			select {
			case firstProgress <- struct{}{}:
			default:
			}
		},
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			elicited.Add(1)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"value": "Grace"}}, nil
		},
	}).Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Errorf("Go SDK client: %v", err)
		return o
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Errorf("Go SDK client: tools/list: %v", err)
		return o
	}
	for _, tool := range res.Tools {
		o.Tools = append(o.Tools, obsTool{tool.Name, tool.OutputSchema != nil})
	}
	var plan []planStep
	_ = json.Unmarshal([]byte(matrixPlan), &plan)
	for i, c := range plan {
		p := &mcp.CallToolParams{Name: c.Tool, Arguments: c.Args}
		if c.Progress {
			p.Meta = mcp.Meta{"progressToken": fmt.Sprintf("m%d", i)}
		}
		drain(firstProgress)
		before, elicitedBefore := progress.Load(), elicited.Load()
		callCtx, stop := context.WithCancel(ctx)
		if c.Cancel {
			go func() {
				select {
				case <-firstProgress:
					stop()
				case <-callCtx.Done():
				}
			}()
		}
		r, err := cs.CallTool(callCtx, p)
		stop()
		call := obsCall{Tool: c.Tool}
		switch {
		case c.Cancel && errors.Is(err, context.Canceled):
			call.Cancelled = 1
		case err != nil:
			call.Error = &obsError{Message: err.Error()}
		default:
			call.IsError, call.Text = r.IsError, resultText(r)
			call.Structured, _ = json.Marshal(r.StructuredContent)
		}
		call.Progress = int(progress.Load() - before)
		call.Elicited = int(elicited.Load() - elicitedBefore)
		o.Calls = append(o.Calls, call)
	}
	return o
}

// planStep is one call of matrixPlan.
type planStep struct {
	Tool     string         `json:"tool"`
	Args     map[string]any `json:"args"`
	Progress bool           `json:"progress"`
	Cancel   bool           `json:"cancel"`
	Elicit   string         `json:"elicit"`
}

// TestCompatibilityMatrix runs every pinned client against the gateway and every pinned
// server behind the bridge, and prints the table.
func TestCompatibilityMatrix(t *testing.T) {
	needNPM(t)
	needFastMCP(t)
	needKit(t)
	gw := filepath.Join(bin, "octet-mcp-gateway")
	dirs := matrixDirs()
	header := "| client | transport | list | valid call | invalid arguments → isError + pointer | structuredContent ↔ outputSchema | progress | cancellation | elicitation |\n|---|---|---|---|---|---|---|---|---|\n"
	var rows []string
	row := func(client, transport string, o observed) {
		cs := cells(o)
		rows = append(rows, fmt.Sprintf("| %s | %s | %s |", client, transport, strings.Join(cs, " | ")))
		for i, c := range cs {
			if c == "✗" {
				t.Errorf("%s over %s: column %d failed: %+v", client, transport, i+1, o)
			}
		}
	}
	// The Go SDK client, stdio and streamable HTTP.
	row("MCP Go SDK v1.8.0", "stdio", goClient(t, &mcp.CommandTransport{Command: exec.Command(gw, append([]string{"--workspace", t.TempDir()}, dirs...)...)}))
	url, token := startHTTPGateway(t, nil, dirs...)
	row("MCP Go SDK v1.8.0", "HTTP", goClient(t, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}))
	// The TypeScript SDK client, stdio and streamable HTTP, with the same HTTP gateway.
	node := "node"
	row("TypeScript SDK 1.32.2", "stdio", runDriver(t, node, append([]string{"matrix_client.mjs", matrixPlan, "stdio", gw}, dirs...)...))
	row("TypeScript SDK 1.32.2", "HTTP", runDriver(t, node, "matrix_client.mjs", matrixPlan, "http", url, token))
	// The Python mcp client, stdio.
	row("Python mcp 2.3.0", "stdio", runDriver(t, filepath.Join(serversDir(), ".venv", "bin", "python"), append([]string{"matrix_client.py", matrixPlan, gw}, dirs...)...))
	// MCP Inspector's CLI, 2.x and 0.x (one process per request).
	for _, insp := range []struct{ name, script string }{
		{"MCP Inspector CLI 2.12.0", "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"},
		{"MCP Inspector CLI 0.22.0", "node_modules/inspector-v0/cli/build/cli.js"},
	} {
		row(insp.name, "stdio", inspectorObserve(t, insp.script, gw, dirs))
	}
	table := header + strings.Join(rows, "\n") + "\n\n" + serverMatrix(t)
	t.Log("\n" + table)
	if p := os.Getenv("OCTET_MCP_MATRIX"); p != "" {
		if err := os.WriteFile(p, []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// inspectorObserve runs the plan with an MCP Inspector CLI (node script), one process
// per request as the CLI works.
func inspectorObserve(t *testing.T, script, gw string, dirs []string) observed {
	t.Helper()
	var o observed
	run := func(args ...string) map[string]any {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
		defer cancel()
		full := append(append([]string{script, "--cli", gw}, dirs...), args...)
		cmd := exec.CommandContext(ctx, "node", full...)
		cmd.Dir = serversDir()
		out, _ := cmd.Output() // 2.x exits 1 after printing an isError result
		s := string(out)
		if i := strings.Index(s, "{"); i >= 0 {
			s = s[i:]
		}
		dec := json.NewDecoder(strings.NewReader(s))
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Errorf("%s %v printed no JSON: %v\n%s", filepath.Base(script), args, err, out)
		}
		return m
	}
	list := run("--method", "tools/list")
	tools, _ := list["tools"].([]any)
	for _, x := range tools {
		m, _ := x.(map[string]any)
		name, _ := m["name"].(string)
		_, hasOut := m["outputSchema"]
		o.Tools = append(o.Tools, obsTool{name, hasOut})
	}
	for _, c := range []struct {
		tool string
		args []string
	}{
		{"hello_world", []string{"name=Ada"}},
		{"hello_world", []string{"name=5"}},
		{"area", []string{"width=2", "height=3"}},
		{"fetch_many", []string{`items=["x","y"]`, "delay_ms=50"}},
		{"fetch_many", nil}, // the CLI cannot cancel: not called
		{"fetch_many", []string{`items=["z"]`, "delay_ms=1"}},
		{"ask", []string{"kind=input", "prompt=Your name?"}},
	} {
		if c.args == nil {
			o.Calls = append(o.Calls, obsCall{Tool: c.tool, Cancelled: -1})
			continue
		}
		args := []string{"--method", "tools/call", "--tool-name", c.tool}
		for _, a := range c.args {
			args = append(args, "--tool-arg", a)
		}
		r := run(args...)
		call := obsCall{Tool: c.tool}
		call.IsError, _ = r["isError"].(bool)
		content, _ := r["content"].([]any)
		var texts []string
		for _, p := range content {
			pm, _ := p.(map[string]any)
			if s, ok := pm["text"].(string); ok {
				texts = append(texts, s)
			}
		}
		call.Text = strings.Join(texts, "\n")
		if sc, ok := r["structuredContent"]; ok {
			call.Structured, _ = json.Marshal(sc)
		}
		call.Progress = -1 // the CLI asks for no progress
		call.Elicited = -1 // nor declares elicitation
		o.Calls = append(o.Calls, call)
	}
	return o
}

// serverMatrix runs seven real servers behind one octet-mcp and calls a tool of each
// through octet-host call; it returns their table.
func serverMatrix(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write(t, filepath.Join(root, "note.txt"), []byte("matrix"))
	repo := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	nm := filepath.Join(serversDir(), "node_modules", "@modelcontextprotocol")
	nodeServer := func(pkg string, args ...string) map[string]any {
		return map[string]any{"command": "node", "args": append([]string{filepath.Join(nm, pkg, "dist", "index.js")}, args...), "handshake_timeout": "90s",
			"env": map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.jsonl")}}
	}
	servers := []struct {
		key, label, tool, args, want string
	}{
		{"time", "mcp-server-time 2026.10.19 (PyPI)", "time_get_current_time", `{"timezone":"UTC"}`, `"timezone":"UTC"`},
		{"git", "mcp-server-git 2026.10.19 (PyPI)", "git_git_log", `{"repo_path":"` + repo + `"}`, "first"},
		{"fast", "FastMCP 4.1.6 server of the kit (nested pydantic models)", "fast_tree", `{"depth":1}`, `"root.1"`},
		{"memory", "@modelcontextprotocol/server-memory 2026.8.31", "memory_read_graph", `{}`, "entities"},
		{"fs", "@modelcontextprotocol/server-filesystem 2026.8.31", "fs_read_text_file", `{"path":"` + filepath.Join(root, "note.txt") + `"}`, "matrix"},
		{"think", "@modelcontextprotocol/server-sequential-thinking 2026.8.31", "think_sequentialthinking", `{"thought":"a","thoughtNumber":1,"totalThoughts":1,"nextThoughtNeeded":false}`, "thoughtNumber"},
		{"every", "@modelcontextprotocol/server-everything 2026.8.31", "every_echo", `{"message":"hi"}`, "hi"},
	}
	cfg := map[string]any{
		"time": pyServer("mcp-server-time", "--local-timezone", "UTC"), "git": pyServer("mcp-server-git", "--repository", repo), "fast": fastMCPCmd(),
		"memory": nodeServer("server-memory"), "fs": nodeServer("server-filesystem", root), "think": nodeServer("server-sequential-thinking"),
	}
	cmd, args := everythingCmd()
	cfg["every"] = map[string]any{"command": cmd, "args": args, "handshake_timeout": "90s"}
	callArgs := []string{"mcp_status", `{"wait":true,"timeout_ms":90000}`}
	for _, s := range servers {
		callArgs = append(callArgs, s.tool, s.args)
	}
	lines, _, stderr := hostCall(t, append([]string{"--timeout", "120s", bridgeDir(t, cfg)}, callArgs...)...)
	if len(lines) != len(servers)+1 {
		t.Fatalf("%d lines; stderr:\n%.4000s", len(lines), stderr)
	}
	status := map[string]serverStatus{}
	for _, s := range statusLine(t, lines[0]).Servers {
		status[s.Name] = s
	}
	var b strings.Builder
	b.WriteString("| server behind octet-mcp | state | tools published | withheld | a call through `octet-host call` |\n|---|---|---|---|---|\n")
	for i, s := range servers {
		st := status[s.key]
		l := lines[i+1]
		called := l.Error == nil && !l.IsError && strings.Contains(l.raw, s.want)
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %s `%s` |\n", s.label, st.State, len(st.Tools), len(st.Withheld), mark(called), s.tool)
		if st.State != "ready" || len(st.Tools) == 0 || len(st.Withheld) != 0 || !called {
			t.Errorf("%s: %+v; call %s", s.key, st, l.raw)
		}
	}
	return b.String()
}
