package host

import (
	"encoding/json"
	"testing"
)

// BenchmarkResultChecks measures the host's checks alone, without a process: a text tool
// result against ToolResult, the same with structured_content against a small
// output_schema, and closed arguments against their parameters schema.
func BenchmarkResultChecks(b *testing.B) {
	tool := ToolDefinition{Name: "t", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"]}`)}
	s, err := compileToolSchemas(tool)
	if err != nil {
		b.Fatal(err)
	}
	text := json.RawMessage(`{"content":[{"type":"text","text":"{\"n\":1}"}],"is_error":false}`)
	structured := json.RawMessage(`{"content":[{"type":"text","text":"3"}],"structured_content":{"count":3}}`)
	b.Run("result_type", func(b *testing.B) {
		for b.Loop() {
			if _, re := judgeResult("tool/call", "0.4", "t", text); re != nil {
				b.Fatal(re)
			}
		}
	})
	b.Run("result_type_reused", func(b *testing.B) { // as the host's call path parses
		for b.Loop() {
			r := getReuse()
			if _, re := judgeResultWith(r, "tool/call", "0.4", "t", text); re != nil {
				b.Fatal(re)
			}
			putReuse(r)
		}
	})
	b.Run("result_type+output_schema", func(b *testing.B) {
		for b.Loop() {
			doc, re := judgeResult("tool/call", "0.4", "t", structured)
			if re != nil {
				b.Fatal(re)
			}
			if re := judgeOutput(s.output, "t", doc.(map[string]any)); re != nil {
				b.Fatal(re)
			}
		}
	})
	b.Run("arguments", func(b *testing.B) {
		for b.Loop() {
			if f, err := judge(s.params, []byte(`{"n":1}`)); f != nil || err != nil {
				b.Fatal(f, err)
			}
		}
	})
}

// Every typed result is judged by its own type; the refusal names the pointer and rule.
func TestJudgeResultEveryMethod(t *testing.T) {
	for _, tc := range []struct {
		method, api, raw  string
		schema, ptr, rule string // schema "" = valid
	}{
		{"command/execute", "0.4", `{"text":"ok"}`, "", "", ""},
		{"command/execute", "0.4", `{"text":1}`, "CommandExecuteResult", "/text", "type"},
		{"hook/run", "0.4", `{"disposition":{"action":"replace","arguments":{"n":1}}}`, "", "", ""},
		{"hook/run", "0.4", `{"disposition":{"action":"maybe"}}`, "HookRunResult", "/disposition/action", "enum"},
		{"context/collect", "0.4", `{"items":[]}`, "", "", ""},
		{"context/collect", "0.4", `{}`, "ContextCollectResult", "", "required"},
		{"status/collect", "0.4", `{"surface":"status","text":"x","priority":0}`, "", "", ""},
		{"status/collect", "0.4", `{"surface":"status","text":"x"}`, "StatusCollectResult", "", "required"},
		{"tool/render", "0.4", `{"segments":[],"extra":1}`, "ToolRenderResult", "", "additionalProperties"},
		{"tool/call", "0.1", `{"content":"text"}`, "", "", ""},
		{"tool/call", "0.4", `{"content":"text"}`, "ToolResult", "/content", "type"},
	} {
		_, re := judgeResult(tc.method, tc.api, "n", json.RawMessage(tc.raw))
		if tc.schema == "" {
			if re != nil {
				t.Errorf("%s %s: refused a valid result: %v", tc.method, tc.raw, re)
			}
			continue
		}
		if re == nil || re.Schema != tc.schema || re.Pointer != tc.ptr || re.Rule != tc.rule {
			t.Errorf("%s %s: want %s %q %s, got %+v", tc.method, tc.raw, tc.schema, tc.ptr, tc.rule, re)
		}
	}
}
