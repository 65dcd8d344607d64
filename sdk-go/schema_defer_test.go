package octet_test

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

// TestDerivedSchemaCompiledOnFirstCall: a parameters schema derived from the
// argument type is compiled when the tool is first called. Validation is the same
// as before (a bad argument is -32602 naming the path), and a jsonschema tag that
// makes the schema invalid fails the call as internal_error, never as the caller's
// invalid params; a schema given explicitly is still refused where it is defined.
func TestDerivedSchemaCompiledOnFirstCall(t *testing.T) {
	ext := octet.New(octet.Options{Logger: octet.NewLogger(os.Stderr, slog.LevelWarn)})
	octet.Tool(ext, octet.ToolSpec{Name: "good", Description: "Typed"},
		func(ctx context.Context, a struct {
			N int `json:"n" jsonschema:"minimum=1"`
		}) (octet.Result, error) {
			return octet.Text("ok"), nil
		})
	// Defining succeeds: the broken pattern is only found when compiling.
	octet.Tool(ext, octet.ToolSpec{Name: "broken", Description: "A tag with an invalid pattern"},
		func(ctx context.Context, a struct {
			S string `json:"s" jsonschema:"pattern=("`
		}) (octet.Result, error) {
			return octet.Text("unreachable"), nil
		})
	m := map[string]any{"name": "defer-test", "version": "0.1.0", "api_version": "0.4",
		"entrypoint": map[string]any{"command": "run"}, "contributes": map[string]any{"tools": []string{"good", "broken"}}}
	h := octettest.Start(t, ext, octettest.Options{Manifest: m})
	ctx := context.Background()
	if _, err := h.CallTool(ctx, "good", map[string]any{"n": 2}); err != nil {
		t.Fatal(err)
	}
	we := wireError(t, errOnly(h.CallTool(ctx, "good", map[string]any{"n": 0})), -32602)
	if we.Message != "invalid arguments: /n: want at least 1, got 0" {
		t.Fatalf("message %q is not the fault contract's", we.Message)
	}
	for range 2 { // the compile error is kept, not retried into a different answer
		we = wireError(t, errOnly(h.CallTool(ctx, "broken", map[string]any{"s": "x"})), -32603)
		if !strings.Contains(we.Message, `tool "broken": parameters schema /properties/s/pattern: invalid regular expression "(": missing closing )`) {
			t.Fatalf("message %q", we.Message)
		}
	}

	_, err := octet.DefineRawTool(octet.ToolSpec{Name: "explicit", Description: "x",
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"s": map[string]any{"type": "string", "pattern": "("}}}},
		nil)
	if err == nil || err.Error() != `octet: tool "explicit": parameters schema /properties/s/pattern: invalid regular expression "(": missing closing ): `+"`(`" {
		t.Fatalf("explicit invalid schema: %v", err)
	}
}
