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
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/store"
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

// binDir holds the built test binaries for the whole test process (not one test's
// TempDir, which goes with that test: a second -count run would find no binary).
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// testBinary builds testdata/<name> once per test process.
func testBinary(t *testing.T, name string) string {
	t.Helper()
	b := binaries[name]
	b.once.Do(func() {
		if binDir == "" {
			if binDir, b.err = os.MkdirTemp("", "services-testbin-"); b.err != nil {
				return
			}
		}
		b.path = filepath.Join(binDir, name)
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

type realHost struct {
	t  *testing.T
	h  *reference.Host
	st *store.Store
}

// startReal starts extension name (the testdata binary of that name, one
// tool) in the reference host (core, router, store, recording), as
// octet-host runs it.
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
	h, err := reference.Open(context.Background(), reference.Options{
		Host: host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, Session: host.Session{SessionID: "s1"},
			StartTimeout: 10 * time.Second, ShutdownDrain: time.Second, TermGrace: 300 * time.Millisecond},
		Script: mustScript(t, scriptText),
		Record: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	})
	if _, err := h.StartDir(context.Background(), dir); err != nil {
		t.Fatalf("start: %v", err)
	}
	return &realHost{t: t, h: h, st: h.Store()}
}

// frames is the recorded exchange of the extension name.
func (rh *realHost) frames(name string) []store.Frame {
	rh.t.Helper()
	frames, _, err := rh.st.Frames(context.Background(), rh.h.RecordingID(name))
	if err != nil || len(frames) == 0 {
		rh.t.Fatalf("recording of %s: %d frames, %v", name, len(frames), err)
	}
	return frames
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
	frames := rh.frames("rev")
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
	for _, f := range rh.frames("sdkext") {
		if contains(f.Frame, "sdk-secret-value") || contains(f.Frame, "sdk-typed-answer") {
			t.Fatalf("recorded frame leaks a secret: %s", f.Frame)
		}
	}
}
