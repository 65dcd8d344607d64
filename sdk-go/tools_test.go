package octet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

func wireError(t *testing.T, err error, code int64) *jsonrpc.Error {
	t.Helper()
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != code {
		t.Fatalf("error = %v, want code %d", err, code)
	}
	return we
}

func TestHandshakeAnswersTheRegistry(t *testing.T) {
	ext := testExtension(octet.Options{})
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest(), SkipInitialize: true})
	res, err := h.Initialize()
	if err != nil {
		t.Fatal(err)
	}
	if res["api_version"] != "0.4" || res["name"] != "sdk-test" || res["version"] != "1.2.3" {
		t.Fatalf("initialize result = %v", res)
	}
	proto := res["protocol"].(map[string]any)
	feats := proto["features"].([]any)
	if feats[0] != "request_cancellation" || feats[1] != "content_parts" || !strings.Contains(strings.Join(ext.NegotiatedFeatures(), ","), "kv") {
		t.Fatalf("features = %v", feats)
	}
	if proto["limits"].(map[string]any)["max_concurrent_requests"] != 4.0 {
		t.Fatalf("concurrency not capped at the host's 4: %v", proto)
	}
	if _, ok := proto["lifecycle_events"]; ok || ext.HasFeature("lifecycle_events") {
		t.Fatal("lifecycle_events accepted without a subscription")
	}
	tools := res["tools"].([]any)
	typed := tools[1].(map[string]any)
	params := typed["parameters"].(map[string]any)
	if typed["name"] != "typed" || params["additionalProperties"] != false || len(params["required"].([]any)) != 2 || typed["output_schema"] == nil {
		t.Fatalf("typed definition = %v", typed)
	}
	if _, err := h.Initialize(); err == nil {
		t.Fatal("a second initialize was accepted")
	}
}

var _ = behaviour("EchoAndContributions", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	res, err := h.CallTool(ctx, "echo", map[string]any{"value": map[string]any{"nested": []any{1.0, "two"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "echo" || res.StructuredContent["value"].(map[string]any)["nested"].([]any)[1] != "two" {
		t.Fatalf("echo = %+v", res)
	}
	var cmd map[string]any
	if err := h.Call(ctx, "command/execute", map[string]any{"name": "join", "arguments": []string{"a", "b"}}, &cmd); err != nil || cmd["text"] != "a b" {
		t.Fatalf("command = %v %v", cmd, err)
	}
	var hook map[string]any
	if err := h.Call(ctx, "hook/run", map[string]any{"hook": "before_prompt", "payload": map[string]any{"prompt": "hi"}}, &hook); err != nil ||
		hook["disposition"].(map[string]any)["action"] != "continue" {
		t.Fatalf("hook = %v %v", hook, err)
	}
	var status map[string]any
	if err := h.Call(ctx, "status/collect", map[string]any{"surface": "status"}, &status); err != nil || status["surface"] != "status" || status["text"] != "ready" {
		t.Fatalf("status = %v %v", status, err)
	}
	var render map[string]any
	if err := h.Call(ctx, "tool/render", map[string]any{"name": "echo", "arguments": map[string]any{}, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "x"}}}}, &render); err != nil {
		t.Fatal(err)
	}
	seg := render["segments"].([]any)[0].(map[string]any)
	if v, ok := seg["style_role"]; !ok || v != nil {
		t.Fatalf("style_role must be null, got %v", render)
	}
	err = h.Call(ctx, "nope/method", map[string]any{}, nil)
	wireError(t, err, -32601)
})

var _ = behaviour("TypedArgumentsAndOutputSchema", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	res, err := h.CallTool(ctx, "typed", map[string]any{"count": 3, "label": "x"})
	if err != nil || res.Text() != "x:3" || res.StructuredContent["count"] != 3.0 {
		t.Fatalf("typed = %+v %v", res, err)
	}
	we := wireError(t, errOnly(h.CallTool(ctx, "typed", map[string]any{"count": "3", "label": "x"})), -32602)
	var data map[string]string
	_ = json.Unmarshal(we.Data, &data)
	if data["path"] != "/arguments/count" {
		t.Fatalf("wrong type: data = %s", we.Data)
	}
	wireError(t, errOnly(h.CallTool(ctx, "typed", map[string]any{"count": 1})), -32602)
	wireError(t, errOnly(h.CallTool(ctx, "typed", map[string]any{"count": 1, "label": "x", "extra": true})), -32602)
	we = wireError(t, errOnly(h.CallTool(ctx, "typed", map[string]any{"count": 1, "label": "break-output"})), -32603)
	if !strings.Contains(we.Message, "output_schema") {
		t.Fatalf("output schema violation: %v", we)
	}
})

func errOnly(_ any, err error) error { return err }

var _ = behaviour("StructuredErrorsCrossVerbatim", func(t *testing.T, h *octettest.Host) {
	err := errOnly(h.CallTool(context.Background(), "fail_with", map[string]any{"code": 4242, "message": "nope", "data": map[string]any{"k": 1}}))
	we := wireError(t, err, 4242)
	if we.Message != "nope" || string(we.Data) != `{"k":1}` {
		t.Fatalf("error = %#v", we)
	}
})

var _ = behaviour("ProgressSequencesStartAtOne", func(t *testing.T, h *octettest.Host) {
	res, err := h.CallTool(context.Background(), "progress_n", map[string]any{"n": 5})
	if err != nil || res.Text() != "done" {
		t.Fatalf("%+v %v", res, err)
	}
	frames := h.Received("$/progress")
	if len(frames) != 5 {
		t.Fatalf("%d progress frames", len(frames))
	}
	for i, f := range frames {
		p := f["params"].(map[string]any)
		ev := p["event"].(map[string]any)
		if p["sequence"] != float64(i+1) || ev["current"] != float64(i+1) || ev["total"] != 5.0 || p["parent_request_id"] == nil {
			t.Fatalf("progress %d = %v", i, p)
		}
		// Progress fills the discriminator; Steps leaves an empty unit out.
		if _, unit := ev["unit"]; ev["type"] != "status" || ev["message"] != fmt.Sprintf("step %d", i+1) || unit {
			t.Fatalf("progress %d event = %v", i, ev)
		}
	}
})

var _ = behaviour("ResultOverTheMessageLimitIsInternalError", func(t *testing.T, h *octettest.Host) {
	we := wireError(t, errOnly(h.CallTool(context.Background(), "big_result", map[string]any{"bytes": 2 << 20})), -32603)
	if !strings.Contains(we.Message, "1048576-byte message limit") || !strings.Contains(we.Message, "2097") {
		t.Fatalf("message %q does not name size and limit", we.Message)
	}
	// The session is intact.
	if _, err := h.CallTool(context.Background(), "echo", map[string]any{"value": 1}); err != nil {
		t.Fatal(err)
	}
})

var _ = behaviour("NestedCallbacksWhileServing", func(t *testing.T, h *octettest.Host) {
	res, err := h.CallTool(context.Background(), "callback_n", map[string]any{"n": 200})
	if err != nil || res.StructuredContent["calls"] != 200.0 {
		t.Fatalf("%+v %v", res, err)
	}
})

// TestHostParamsAreValidated: every host request's params are checked against the
// schema before a handler sees them.
var _ = behaviour("HostParamsAreValidated", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	for _, c := range []struct {
		method string
		params map[string]any
	}{
		{"hook/run", map[string]any{"hook": "before_prompt", "payload": map[string]any{"prompt": 7}}},
		{"status/collect", map[string]any{"surface": "sidebar"}},
		{"command/execute", map[string]any{"name": "join", "arguments": "a b"}},
		{"tool/call", map[string]any{"name": "echo", "arguments": map[string]any{"value": 1}, "Name": "x"}},
		{"tool/call", map[string]any{"name": "echo", "arguments": map[string]any{"value": 1},
			"resource_owner": map[string]any{"session_id": "", "extension_instance_id": "i", "process_generation": 0}}},
	} {
		if err := h.Call(ctx, c.method, c.params, nil); err == nil {
			t.Errorf("%s %v was served", c.method, c.params)
		} else {
			wireError(t, err, -32602)
		}
	}
})

// ToolCallParamsDecodedOnce: tool/call params are parsed once (toolcall.go); the
// arguments handed to the tool are found by key however the host writes the
// object, and strictness covers the arguments as much as the envelope.
var _ = behaviour("ToolCallParamsDecodedOnce", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	var res struct {
		StructuredContent map[string]any `json:"structured_content"`
	}
	// Arguments last, after a nested owner, with spaces and an escaped key.
	params := json.RawMessage(`{ "name" : "echo" , "resource_owner" : {"session_id":"s}{","extension_instance_id":"i","process_generation":3},` +
		` "argu\u006dents" : { "value" : ["a]", {"b":"}"}] } }`)
	if err := h.Call(ctx, "tool/call", params, &res); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.StructuredContent["value"]); string(got) != `["a]",{"b":"}"}]` {
		t.Fatalf("value = %s", got)
	}
	// Keys sorted: the owner comes back re-marshalled through a map.
	owner := json.RawMessage(`{"extension_instance_id":"i1","process_generation":7,"session_id":"s1"}`)
	if err := h.Call(ctx, "tool/call", json.RawMessage(`{"name":"whoami","arguments":{},"resource_owner":`+string(owner)+`}`), &res); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(res.StructuredContent["owner"]); string(got) != string(owner) {
		t.Fatalf("owner = %s, want %s", got, owner)
	}
	for _, bad := range []string{
		`{"name":"echo","arguments":{"value":1,"value":2}}`,      // duplicate key inside the arguments
		`{"name":"echo","arguments":{"value":"\ud800"}}`,         // lone surrogate inside the arguments
		`{"name":"echo","arguments":{"value":1},"arguments":{}}`, // duplicate envelope key
		`{"name":"echo","arguments":{"value":1},"catalog_revision":1.0}`,
		`{"name":"echo","arguments":{"value":1},"call_id":5}`,
		`{"name":"echo","arguments":[]}`,
		`{"name":"echo"}`,
	} {
		if err := h.Call(ctx, "tool/call", json.RawMessage(bad), nil); err == nil {
			t.Errorf("%s was served", bad)
		} else {
			wireError(t, err, -32602)
		}
	}
})
