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
