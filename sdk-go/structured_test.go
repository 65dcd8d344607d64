package octet_test

import (
	"context"
	"encoding/json"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

type areaArgs struct {
	Width  float64 `json:"width" jsonschema:"minimum=0"`
	Height float64 `json:"height" jsonschema:"minimum=0"`
}

type areaResult struct {
	Area float64 `json:"area"`
	Unit string  `json:"unit,omitempty"`
}

func structuredExtension() *octet.Extension {
	ext := octet.New(octet.Options{})
	octet.StructuredTool(ext, octet.ToolSpec{Name: "area", Description: "Area of a rectangle"},
		func(ctx context.Context, a areaArgs) (areaResult, error) {
			return areaResult{Area: a.Width * a.Height, Unit: "m2"}, nil
		})
	// A hand output schema stricter than the struct: a result breaking it is the
	// extension's fault, never sent as if it were fine.
	octet.StructuredTool(ext, octet.ToolSpec{Name: "signed", Description: "Difference",
		OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"area": map[string]any{"type": "number", "minimum": 0}},
			"required": []string{"area"}}},
		func(ctx context.Context, a areaArgs) (areaResult, error) {
			return areaResult{Area: a.Width - a.Height}, nil
		})
	return ext
}

func structuredManifest() map[string]any {
	return map[string]any{
		"name": "structured", "version": "0.1.0", "api_version": "0.4",
		"entrypoint":  map[string]any{"command": "run"},
		"contributes": map[string]any{"tools": []string{"area", "signed"}},
	}
}

// The output schema is derived from the result struct, announced at initialize, and the
// value comes back as structured_content and as its JSON text.
func TestStructuredToolDerivesItsOutputSchema(t *testing.T) {
	h := octettest.Start(t, structuredExtension(), octettest.Options{Manifest: structuredManifest(), SkipInitialize: true})
	res, err := h.Initialize()
	if err != nil {
		t.Fatal(err)
	}
	area := res["tools"].([]any)[0].(map[string]any)
	out, ok := area["output_schema"].(map[string]any)
	if !ok {
		t.Fatalf("area has no output_schema: %v", area)
	}
	props := out["properties"].(map[string]any)
	if out["type"] != "object" || out["additionalProperties"] != false || props["area"].(map[string]any)["type"] != "number" {
		t.Fatalf("derived output_schema = %v", out)
	}
	if req, _ := json.Marshal(out["required"]); string(req) != `["area"]` {
		t.Fatalf("required = %s, want only area (unit is omitempty)", req)
	}
	got, err := h.CallTool(context.Background(), "area", map[string]any{"width": 3, "height": 4})
	if err != nil {
		t.Fatal(err)
	}
	if got.StructuredContent["area"] != 12.0 || got.StructuredContent["unit"] != "m2" || len(got.Content) != 1 || got.Content[0].Text != `{"area":12,"unit":"m2"}` {
		t.Fatalf("result = %+v", got)
	}
	if _, err := h.CallTool(context.Background(), "area", map[string]any{"width": -1, "height": 4}); err == nil {
		t.Fatal("arguments breaking the derived minimum were served")
	} else {
		wireError(t, err, -32602)
	}
}

func TestStructuredToolResultBreakingItsSchemaIsRefused(t *testing.T) {
	h := octettest.Start(t, structuredExtension(), octettest.Options{Manifest: structuredManifest()})
	if _, err := h.CallTool(context.Background(), "signed", map[string]any{"width": 5, "height": 2}); err != nil {
		t.Fatalf("a conforming result was refused: %v", err)
	}
	_, err := h.CallTool(context.Background(), "signed", map[string]any{"width": 2, "height": 5})
	wireError(t, err, -32603)
}
