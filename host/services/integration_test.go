package services_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// These tests run the services behind the real host core, talking to a real
// extension process (testdata/revext) over pipes: identity, owners and
// parents come from the core, not from a fake Caller.

type builtBinary struct {
	once sync.Once
	path string
	err  error
}

var binaries = map[string]*builtBinary{"revext": {}, "sdkext": {}}

// testBinary builds testdata/<name> once per test process.
func testBinary(t *testing.T, name string) string {
	t.Helper()
	b := binaries[name]
	b.once.Do(func() {
		dir := t.TempDir()
		b.path = filepath.Join(dir, name)
		cmd := exec.Command("go", "build", "-o", b.path, "./testdata/"+name)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("build %s: %v\n%s", name, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

// adapter presents a services.Router as host.Services (what octet-host's
// CLI does), so the core's Caller reaches the router unchanged.
type adapter struct {
	r       *services.Router
	h       *host.Host
	mu      sync.Mutex
	callers map[*host.Caller]*services.Caller
	hostOf  map[*services.Caller]*host.Caller
}

func (a *adapter) caller(c *host.Caller) *services.Caller {
	a.mu.Lock()
	defer a.mu.Unlock()
	if sc := a.callers[c]; sc != nil {
		return sc
	}
	sc := &services.Caller{Extension: c.Extension, Principal: c.Principal, APIVersion: c.APIVersion, InstanceID: c.InstanceID,
		Generation: c.Generation, Features: c.Features, Secrets: c.Secrets, Commands: c.Commands, UI: c.UI, Context: c.Context,
		Presentation: c.Presentation, Notifications: c.Notifications, Confirmations: c.Confirmations, ScratchDir: c.ScratchDir,
		ActiveParent: func(id jsonrpc.ID) (services.Owner, bool) {
			o, ok := c.ActiveParent(id)
			return services.Owner{SessionID: o.SessionID, InstanceID: o.InstanceID, Generation: o.Generation}, ok
		}}
	a.callers[c], a.hostOf[sc] = sc, c
	return sc
}

func (a *adapter) Handle(ctx context.Context, c *host.Caller, req *jsonrpc.Request) (any, error) {
	return a.r.Handle(ctx, a.caller(c), req)
}
func (a *adapter) ParentSettled(c *host.Caller, id jsonrpc.ID) { a.r.ParentSettled(a.caller(c), id) }
func (a *adapter) GenerationEnded(c *host.Caller)              { a.r.GenerationEnded(a.caller(c)) }
func (a *adapter) SeedCatalog(c *host.Caller, tools []host.ToolDefinition) error {
	out := make([]services.ToolDefinition, len(tools))
	for i, t := range tools {
		out[i] = services.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters, OutputSchema: t.OutputSchema}
	}
	return a.r.SeedCatalog(a.caller(c), out)
}

type realHost struct {
	t  *testing.T
	h  *host.Host
	st *store.Store
}

// startReal starts extension name (the testdata binary of that name, one
// tool) behind the real host core and the router, recording its frames.
func startReal(t *testing.T, binary, name, tool, scriptText string) *realHost {
	t.Helper()
	bin := testBinary(t, binary)
	base := t.TempDir()
	dir := filepath.Join(base, "exts", name)
	os.MkdirAll(dir, 0o755)
	man := fmt.Sprintf(`name = %q
version = "1.0.0"
api_version = "0.4"
[entrypoint]
command = %q
[capabilities]
secrets = ["api.token", "absent.token"]
[contributes]
tools = [%q]
notifications = true
`, name, bin, tool)
	os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(man), 0o644)
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	entry := res.Lookup(name)
	if entry == nil || !entry.Valid() {
		t.Fatalf("manifest: %v", res.Diagnostics)
	}
	st, err := store.Open(context.Background(), filepath.Join(base, "state"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := &adapter{callers: map[*host.Caller]*services.Caller{}, hostOf: map[*services.Caller]*host.Caller{}}
	sc := mustScript(t, scriptText)
	r, err := services.NewRouter(services.RouterConfig{Store: st, Script: sc,
		OnCatalog: func(sc *services.Caller, rev int64, tools []services.ToolDefinition) error {
			a.mu.Lock()
			c := a.hostOf[sc]
			a.mu.Unlock()
			out := make([]host.ToolDefinition, len(tools))
			for i, t := range tools {
				out[i] = host.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters}
			}
			return a.h.OnCatalog(c, rev, out)
		}})
	if err != nil {
		t.Fatal(err)
	}
	a.r = r
	var rec *recording.Recorder
	rec, err = recording.New(context.Background(), st, "it-session", name, recording.Options{KnownSecrets: sc.SecretValues()})
	if err != nil {
		t.Fatal(err)
	}
	h := host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, Session: host.Session{SessionID: "s1"},
		Services: a, SecretBroker: sc.HasSecrets(), StartTimeout: 10 * time.Second, ShutdownDrain: time.Second, TermGrace: 300 * time.Millisecond,
		OnFrame: func(_ string, _ int64, dir jsonrpc.Direction, frame []byte) { rec.OnFrame(dir, frame) }})
	a.h = h
	t.Cleanup(h.Shutdown)
	if failures, err := h.Start(context.Background(), []*discovery.Entry{entry}, nil); err != nil || len(failures) > 0 {
		t.Fatalf("start: %v %+v", err, failures)
	}
	return &realHost{t: t, h: h, st: st}
}

type outcome struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// reverse calls the extension's tool, which performs calls as its handler.
func (rh *realHost) reverse(args map[string]any) []outcome {
	rh.t.Helper()
	b, _ := json.Marshal(args)
	raw, _, err := rh.h.CallTool(context.Background(), "reverse", b)
	if err != nil {
		rh.t.Fatalf("tool call: %v", err)
	}
	var res struct{ Content []struct{ Text string } }
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Content) == 0 {
		rh.t.Fatalf("tool result %s: %v", raw, err)
	}
	var out []outcome
	if err := json.Unmarshal([]byte(res.Content[0].Text), &out); err != nil {
		rh.t.Fatalf("outcomes %s: %v", res.Content[0].Text, err)
	}
	return out
}

func c(method string, params any) map[string]any {
	return map[string]any{"method": method, "params": params}
}

func TestIntegrationRealProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	rh := startReal(t, "revext", "rev", "reverse", `
[secrets]
"api.token" = "real-process-secret"
[[policy]]
kind = "net"
decision = "ask"
approve = true
[[agents]]
task_name = "probe"
output = "probed"
`)
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 1000)...)
	intent := map[string]any{"kind": "net", "operation": "fetch"}
	out := rh.reverse(map[string]any{
		"scratch": map[string]string{"shots/a.png": base64.StdEncoding.EncodeToString(png)},
		"calls": []any{
			c("secret/get", map[string]any{"parent_request_id": "$parent", "name": "api.token"}),
			c("secret/get", map[string]any{"parent_request_id": "$parent", "name": "not.declared"}),
			c("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("rev", "k", 1)}}),
			c("kv.commit", map[string]any{"preconditions": []any{}, "writes": []any{put("other", "k", 1)}}),
			c("artifact/publish", map[string]any{"parent_request_id": "$parent", "mime_type": "image/png", "path": "shots/a.png", "size": len(png), "sha256": sum(png)}),
			c("artifact/publish", map[string]any{"parent_request_id": 424242, "mime_type": "image/png", "path": "shots/a.png", "size": len(png), "sha256": sum(png)}),
			c("policy/evaluate", map[string]any{"parent_request_id": "$parent", "intent": intent}),
			c("agent/spawn", spawnParamsFor("probe", "key-1")),
			c("agent/wait", map[string]any{"parent_request_id": "$parent", "timeout_ms": 1000}),
			c("tools/register", map[string]any{"tools": []any{tool("late")}}),
		},
	})
	expectOK := func(i int) json.RawMessage {
		t.Helper()
		if out[i].Error != nil {
			t.Fatalf("call %d: %d %s", i, out[i].Error.Code, out[i].Error.Message)
		}
		return out[i].Result
	}
	expectCode := func(i int, code int64) {
		t.Helper()
		if out[i].Error == nil || out[i].Error.Code != code {
			t.Fatalf("call %d: %s / %+v, want error %d", i, out[i].Result, out[i].Error, code)
		}
	}
	if !contains(expectOK(0), "real-process-secret") {
		t.Fatal("secret not served")
	}
	expectCode(1, -32602)
	expectOK(2)
	expectCode(3, -32602)
	if !contains(expectOK(4), sum(png)) {
		t.Fatal("artifact digest missing")
	}
	expectCode(5, -32002)
	var d decision
	json.Unmarshal(expectOK(6), &d)
	if d.Decision != "ask" || len(d.Token) != 64 {
		t.Fatalf("policy %+v", d)
	}
	expectOK(7)
	if !contains(expectOK(8), "probed") {
		t.Fatal("child not settled with its scripted reply")
	}
	if !contains(expectOK(9), `"revision":1`) {
		t.Fatalf("register: %s", out[9].Result)
	}
	// The dynamic tool is now in the host's catalog and callable.
	raw, _, err := rh.h.CallTool(context.Background(), "late", []byte(`{}`))
	if err != nil || !contains(raw, "late ok") {
		t.Fatalf("dynamic tool: %s %v", raw, err)
	}
	// A token is bound to its parent: the next tool call is another parent.
	out = rh.reverse(map[string]any{"calls": []any{
		c("policy/evaluate", map[string]any{"parent_request_id": "$parent", "intent": intent, "approval_token": d.Token}),
	}})
	var d2 decision
	json.Unmarshal(expectOK(0), &d2)
	if d2.Decision != "deny" {
		t.Fatalf("token redeemed under another parent: %+v", d2)
	}
	// The recording holds the exchange with the secret redacted: the reply
	// to secret/get structurally, and the copy this careless extension
	// echoed in its tool result by the known-value scrub.
	frames, _, _ := rh.st.Frames(context.Background(), "it-session")
	all := ""
	for _, f := range frames {
		all += string(f.Frame)
	}
	if strings.Contains(all, "real-process-secret") || !strings.Contains(all, recording.Redacted) || !strings.Contains(all, `"method":"kv.commit"`) {
		t.Fatalf("recording of %d frames is wrong (secret leaked or exchange missing):\n%s", len(frames), all)
	}
}

func spawnParamsFor(task, key string) map[string]any {
	p := spawnParams(task, key)
	p["parent_request_id"] = "$parent"
	p["policy"].(map[string]any)["max_output_bytes"] = 1000
	return p
}

// TestIntegrationGoSDK runs an extension written with the Go SDK: every
// service as an author calls it, through the SDK's helpers and the host core.
func TestIntegrationGoSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	rh := startReal(t, "sdkext", "sdkext", "exercise", `
[secrets]
"api.token" = "sdk-secret-value"
[[inputs]]
match = "Password"
value = "sdk-typed-answer"
[[policy]]
kind = "net"
decision = "ask"
approve = true
[[agents]]
task_name = "probe"
output = "probe says hi"
`)
	raw, _, err := rh.h.CallTool(context.Background(), "exercise", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Content []struct {
			Type, Text, ArtifactID string
		}
	}
	json.Unmarshal(raw, &res)
	if len(res.Content) != 2 || res.Content[1].Type != "image" {
		t.Fatalf("result %s", raw)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].Text), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"secret_len": float64(len("sdk-secret-value")), "secret_code": 0.0, "absent_secret_code": -32004.0,
		"kv_commit_code": 0.0, "kv_get_code": 0.0, "kv_found": true, "kv_version": store.Digest([]byte(`{"a":1,"b":2}`)),
		"kv_foreign_code": -32602.0, "kv_conflict_code": -32005.0,
		"artifact_code": 0.0, "artifact_size": 4104.0,
		"policy_first": "ask", "policy_code": 0.0, "policy_redeemed": "allow", "policy_reused": "deny",
		"spawn_code": 0.0, "spawn_created": true, "wait_code": 0.0, "agent_output": "probe says hi",
		"input_code": 0.0, "input_answered": true, "notify_code": 0.0,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	frames, _, _ := rh.st.Frames(context.Background(), "it-session")
	for _, f := range frames {
		if contains(f.Frame, "sdk-secret-value") || contains(f.Frame, "sdk-typed-answer") {
			t.Fatalf("recorded frame leaks a secret: %s", f.Frame)
		}
	}
}
