package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatewayScript lets policy-and-secrets act: the policy allows its one operation and the
// broker holds its token. Its confirmation is not scripted: the MCP client answers it.
const gatewayScript = `
[secrets]
"demo.api_token" = "not-a-real-token"

[[policy]]
kind = "external_side_effect"
operation = "browser.submit_form"
decision = "allow"
`

// client is an MCP Go SDK client session on octet-mcp-gateway over stdio, with the
// notifications it received.
type client struct {
	cs       *mcp.ClientSession
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	progCh   chan struct{}
	changed  chan struct{}
	elicited []string
}

// startGateway starts octet-mcp-gateway DIRS... with the script and connects the MCP Go
// SDK client (which answers elicitations with accept when elicit is set).
func startGateway(t *testing.T, elicit bool, dirs ...string) *client {
	t.Helper()
	needKit(t)
	script := filepath.Join(t.TempDir(), "gateway.toml")
	write(t, script, []byte(gatewayScript))
	c := &client{changed: make(chan struct{}, 16), progCh: make(chan struct{}, 64)}
	opts := &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.changed <- struct{}{} },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			c.mu.Lock()
			c.progress = append(c.progress, r.Params)
			c.mu.Unlock()
			c.progCh <- struct{}{}
		},
	}
	if elicit {
		opts.ElicitationHandler = func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			c.mu.Lock()
			c.elicited = append(c.elicited, r.Params.Message)
			c.mu.Unlock()
			if strings.Contains(js(r.Params.RequestedSchema), `"value"`) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"value": "Grace"}}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
		}
	}
	args := append([]string{"--script", script, "--workspace", t.TempDir()}, dirs...)
	cmd := exec.Command(filepath.Join(bin, "octet-mcp-gateway"), args...)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "octet-e2e", Version: "1"}, opts).Connect(context.Background(),
		&mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	c.cs = cs
	return c
}

func (c *client) tools(t *testing.T) map[string]*mcp.Tool {
	t.Helper()
	res, err := c.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		m[tool.Name] = tool
	}
	return m
}

func (c *client) call(t *testing.T, name string, args any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func resultText(r *mcp.CallToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func exampleDir(lang, name string) string { return filepath.Join(repoDir, "examples", lang, name) }

// TestGatewayServesGoPythonTypeScriptExamples: an MCP client lists and calls the tools of
// Go, Python and TypeScript examples through octet-mcp-gateway: schemas carried over,
// structured results, progress, a confirmation answered by elicitation, argument errors
// as invalid params, and a dynamic catalog change as tools/list_changed.
func TestGatewayServesGoPythonTypeScriptExamples(t *testing.T) {
	c := startGateway(t, true,
		exampleDir("go", "hello-world"), exampleDir("go", "dynamic-tools"),
		exampleDir("python", "typed-tools"), exampleDir("typescript", "fetch-many"), exampleDir("typescript", "policy-and-secrets"))
	tools := c.tools(t)
	for _, name := range []string{"hello_world", "enable_search", "disable_search", "area", "route", "fetch_many", "submit_comment"} {
		tool, ok := tools[name]
		if !ok {
			t.Fatalf("tools/list lacks %s: %v", name, slices.Collect(mapsKeys(tools)))
		}
		if s, _ := json.Marshal(tool.InputSchema); !strings.Contains(string(s), `"type":"object"`) {
			t.Errorf("%s: inputSchema %s is not the octet parameters schema", name, s)
		}
	}
	if s, _ := json.Marshal(tools["area"].OutputSchema); !strings.Contains(string(s), "area") {
		t.Errorf("area: outputSchema %s; want the Python dataclass's schema", s)
	}

	// Go.
	if got := resultText(c.call(t, "hello_world", map[string]any{"name": "Ada"})); got != "Hello, Ada!" {
		t.Errorf("hello_world: %q", got)
	}
	// Python, with structured content.
	r := c.call(t, "area", map[string]any{"width": 2, "height": 3})
	if s, _ := json.Marshal(r.StructuredContent); !strings.Contains(string(s), `"area":6`) {
		t.Errorf("area: structuredContent %s", s)
	}
	// TypeScript, with progress.
	ctx := context.Background()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "fetch_many", Arguments: map[string]any{"items": []string{"a", "b", "c"}, "delay_ms": 1},
		Meta: mcp.Meta{"progressToken": "p1"}})
	if err != nil || !strings.Contains(resultText(res), "record:c") {
		t.Fatalf("fetch_many: %v %v", res, err)
	}
	// Notifications are handled apart from responses: wait for the first one.
	select {
	case <-c.progCh:
		c.mu.Lock()
		p := c.progress[0]
		c.mu.Unlock()
		if p.ProgressToken != "p1" || p.Total != 3 || !strings.Contains(p.Message, "Fetched") {
			t.Errorf("fetch_many progress: %+v", p)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("fetch_many: no progress notification reached the client")
	}
	// A confirmation as elicitation.
	r = c.call(t, "submit_comment", map[string]any{"text": "hi"})
	c.mu.Lock()
	elicited := slices.Clone(c.elicited)
	c.mu.Unlock()
	if r.IsError || !strings.Contains(resultText(r), "Submitted") || len(elicited) != 1 || !strings.Contains(elicited[0], "Publish this comment?") {
		t.Errorf("submit_comment: %q, elicited %q; want the confirmation asked of the client and accepted", resultText(r), elicited)
	}
	// Arguments the tool's schema forbids: under 2025-11-25 a tool error naming the
	// pointer (SEP-1303; TestGatewayInvalidArgumentsByVersion has the older revision).
	r = c.call(t, "hello_world", map[string]any{"name": 5})
	if !r.IsError || !strings.Contains(resultText(r), "/name") {
		t.Errorf("hello_world with a number: want isError naming /name, got %q", resultText(r))
	}
	// A dynamic catalog: enable_search registers provider_search.
	drain(c.changed)
	c.call(t, "enable_search", map[string]any{"provider": "octet"})
	select {
	case <-c.changed:
	case <-time.After(30 * time.Second):
		t.Fatal("no notifications/tools/list_changed after enable_search")
	}
	if _, ok := c.tools(t)["provider_search"]; !ok {
		t.Fatal("provider_search missing after list_changed")
	}
	if got := resultText(c.call(t, "provider_search", map[string]any{"query": "mcp"})); !strings.Contains(got, `octet results for "mcp"`) {
		t.Errorf("provider_search: %q", got)
	}
}

// TestGatewayCancellation: cancelling an MCP call cancels the octet call; the client
// gets its cancellation at once rather than the tool's result.
func TestGatewayCancellation(t *testing.T) {
	c := startGateway(t, false, exampleDir("typescript", "fetch-many"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "fetch_many", Arguments: map[string]any{"items": []string{"a", "b", "c", "d"}, "delay_ms": 10000},
			Meta: mcp.Meta{"progressToken": 7}})
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("want context.Canceled, got %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	// The gateway still serves: the cancelled octet call settled.
	res := c.call(t, "fetch_many", map[string]any{"items": []string{"z"}, "delay_ms": 1})
	if !strings.Contains(resultText(res), "record:z") {
		t.Errorf("after the cancellation: %q", resultText(res))
	}
}

func drain(ch chan struct{}) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

func mapsKeys(m map[string]*mcp.Tool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// startHTTPGateway starts octet-mcp-gateway --http on a loopback port with args and
// returns its endpoint and the token it printed ("" when it printed none).
func startHTTPGateway(t *testing.T, env []string, args ...string) (url, token string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "octet-mcp-gateway"), append([]string{"--http", "127.0.0.1:0", "--workspace", t.TempDir()}, args...)...)
	cmd.Env = append(cmd.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if _, after, ok := strings.Cut(sc.Text(), "bearer token "); ok {
			token = after
		}
		if _, after, ok := strings.Cut(sc.Text(), "serving MCP at "); ok {
			url = after
			break
		}
	}
	if url == "" {
		t.Fatal("the gateway never said where it serves")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	return url, token
}

// bearer adds a bearer token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func httpSession(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	return mcp.NewClient(&mcp.Implementation{Name: "octet-e2e", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
}

// TestGatewayStreamableHTTP: with --http the gateway serves MCP over streamable HTTP on
// a loopback port to a client with the token it printed once, and refuses a
// non-loopback address.
func TestGatewayStreamableHTTP(t *testing.T) {
	url, token := startHTTPGateway(t, nil, exampleDir("go", "hello-world"))
	if len(token) != 64 {
		t.Fatalf("token %q: want 64 hex digits printed at start", token)
	}
	cs, err := httpSession(t, url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "hello_world", Arguments: map[string]any{"name": "HTTP"}})
	if err != nil || resultText(res) != "Hello, HTTP!" {
		t.Fatalf("hello_world over HTTP: %v %v", res, err)
	}
	out, err := exec.Command(filepath.Join(bin, "octet-mcp-gateway"), "--http", "0.0.0.0:0", exampleDir("go", "hello-world")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "must be loopback") {
		t.Errorf("--http 0.0.0.0:0: %v %s; want a refusal", err, out)
	}
}

// TestGatewayHTTPRefusesStrangers: without the token, with a wrong one, from a foreign
// or the null Origin, or under a foreign Host (DNS rebinding) a request is refused
// before MCP sees it; --token-file and --token-env name the token instead of a printed
// one, and --allow-origin admits one more origin.
func TestGatewayHTTPRefusesStrangers(t *testing.T) {
	tokFile := filepath.Join(t.TempDir(), "token")
	write(t, tokFile, []byte("file-token-0123456789abcdef\n"))
	url, printed := startHTTPGateway(t, nil, "--token-file", tokFile, "--allow-origin", "http://localhost:6274", exampleDir("go", "hello-world"))
	if printed != "" {
		t.Errorf("a token was printed although --token-file named one: %q", printed)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(header map[string]string) int {
		req, _ := http.NewRequest("POST", url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	good := "Bearer file-token-0123456789abcdef"
	for _, c := range []struct {
		what   string
		header map[string]string
		want   int
	}{
		{"no token", nil, 401},
		{"wrong token", map[string]string{"Authorization": "Bearer file-token-0123456789abcdeX"}, 401},
		{"basic auth", map[string]string{"Authorization": "Basic ZmlsZS10b2tlbg=="}, 401},
		{"foreign Origin", map[string]string{"Authorization": good, "Origin": "http://evil.example"}, 403},
		{"null Origin", map[string]string{"Authorization": good, "Origin": "null"}, 403},
		{"foreign Origin, no token", map[string]string{"Origin": "http://evil.example"}, 403},
		{"rebound Host", map[string]string{"Authorization": good, "Host": "evil.example:80"}, 403},
		{"token", map[string]string{"Authorization": good}, 200},
		{"token, own Origin", map[string]string{"Authorization": good, "Origin": strings.TrimSuffix(url, "/mcp")}, 200},
		{"token, allowed Origin", map[string]string{"Authorization": good, "Origin": "http://localhost:6274"}, 200},
	} {
		if got := post(c.header); got != c.want {
			t.Errorf("%s: status %d, want %d", c.what, got, c.want)
		}
	}
	// The token from an environment variable the operator names.
	url, _ = startHTTPGateway(t, []string{"GW_TOKEN=env-token-0123456789abcdef"}, "--token-env", "GW_TOKEN", exampleDir("go", "hello-world"))
	cs, err := httpSession(t, url, "env-token-0123456789abcdef")
	if err != nil {
		t.Fatalf("--token-env: %v", err)
	}
	cs.Close()
	if _, err := httpSession(t, url, "file-token-0123456789abcdef"); err == nil {
		t.Error("another token was accepted")
	}
}

// TestGatewayInputAsElicitation: an extension's input request is asked of the MCP client
// as a one-field form and its answer returned; secret input is never elicited (the
// script, here absent, cancels it).
func TestGatewayInputAsElicitation(t *testing.T) {
	c := startGateway(t, true, exampleDir("go", "conformance-fixture"))
	r := c.call(t, "ask", map[string]any{"kind": "input", "prompt": "Your name?"})
	if s := js(r.StructuredContent); !strings.Contains(s, `"Grace"`) {
		t.Errorf("ask input: %s %q; want the client's answer", s, resultText(r))
	}
	r = c.call(t, "ask", map[string]any{"kind": "input", "prompt": "Password?", "secret": true})
	if s := js(r.StructuredContent); !strings.Contains(s, `"answer_sha256":null`) {
		t.Errorf("secret input: %s; want it cancelled, not elicited", s)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.elicited) != 1 || c.elicited[0] != "Your name?" {
		t.Errorf("elicited %q; want only the non-secret prompt", c.elicited)
	}
}
