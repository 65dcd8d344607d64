package octet_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
)

// parityArea and parityAreaResult are the typed tool of ../testsuites/typed-parity.json as
// Go structs; Python declares it with type hints and TypeScript with its typed builder.
type parityArea struct {
	Width  float64  `json:"width" jsonschema:"minimum=0,description=the width"`
	Height float64  `json:"height" jsonschema:"minimum=0,description=the height"`
	Count  int      `json:"count" jsonschema:"minimum=1,maximum=10"`
	Tags   []string `json:"tags,omitempty"`
	Label  string   `json:"label,omitempty"`
}

type parityAreaResult struct {
	Area float64 `json:"area"`
	Unit string  `json:"unit,omitempty"`
}

// TestTypedToolParity: the schemas Go derives from the structs are the shared ones, which
// the Python and TypeScript SDKs must derive from their own definitions too.
func TestTypedToolParity(t *testing.T) {
	raw, err := os.ReadFile("../testsuites/typed-parity.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Tools map[string]struct {
			Parameters   map[string]any `json:"parameters"`
			OutputSchema map[string]any `json:"output_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	def, err := octet.DefineStructuredTool(octet.ToolSpec{Name: "area", Description: "Area of a rectangle"},
		func(ctx context.Context, a parityArea) (parityAreaResult, error) {
			return parityAreaResult{Area: a.Width * a.Height}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]map[string]any{"parameters": def.Parameters(), "output_schema": def.OutputSchema()} {
		exp := want.Tools["area"].Parameters
		if name == "output_schema" {
			exp = want.Tools["area"].OutputSchema
		}
		g, _ := json.Marshal(got)
		var gotJSON map[string]any
		_ = json.Unmarshal(g, &gotJSON) // compare as JSON: []any vs []string, float64 vs int
		if !reflect.DeepEqual(gotJSON, exp) {
			w, _ := json.Marshal(exp)
			t.Errorf("%s:\n got  %s\n want %s", name, g, w)
		}
	}
}
