package octet

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The tool result's own encoder writes exactly json.Marshal's bytes for every shape wire
// produces: each part type with and without its optional member, strings that need
// escaping (quotes, control characters, HTML characters, U+2028, invalid UTF-8), and
// is_error, metadata and structured_content present or absent.
func TestResultAppendJSONMatchesMarshal(t *testing.T) {
	tool := &ToolDef{spec: ToolSpec{Name: "t"}}
	odd := "a\"b\\c\n\x01<&>\u2028é\xff"
	results := []Result{
		Text("echo").WithStructured(map[string]any{"value": "octet-bench-0123456789"}),
		Text(odd),
		Errorf("failed: %s", odd).WithMetadata(map[string]any{"k": odd, "n": 1.5}),
		ToolResult(TextContent("t"), ImageContent("art-1", "image/png", ""), ImageContent("art-2", "image/webp", odd),
			AudioContent("art-3", "audio/ogg", ""), AudioContent("art-4", "audio/wav", "said <this>")).
			WithStructured(json.RawMessage(` { "a" : [1, 2,  3], "html": "<b>" } `)),
		Text("").WithStructured(struct {
			V string `json:"v"`
		}{odd}).WithMetadata(map[string]any{}),
	}
	for i, r := range results {
		w, err := r.wire("0.4", tool)
		if err != nil {
			t.Fatalf("result %d: %v", i, err)
		}
		want, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w.(*result02).AppendJSON([]byte("prefix"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("result %d:\nAppendJSON %s\njson       %s", i, got, want)
		}
	}
}

func TestContentAppendJSONRefusesUnknownType(t *testing.T) {
	if _, err := (Content{Type: "video"}).appendJSON(nil); err == nil {
		t.Fatal("a video part encoded")
	}
}
