package octet_test

import (
	"context"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
)

// BenchmarkDefineTool: what registering one typed tool costs at start-up (schema
// derived from the argument type, then compiled), the conformance fixture's publish
// arguments as the example; an extension pays it once per tool before it can answer
// initialize.
func BenchmarkDefineTool(b *testing.B) {
	type args struct {
		Bytes    int    `json:"bytes" jsonschema:"minimum=0"`
		Mode     string `json:"mode" jsonschema:"enum=inline,enum=path"`
		Corrupt  string `json:"corrupt,omitempty" jsonschema:"enum=size,enum=sha256"`
		MIMEType string `json:"mime_type,omitempty"`
	}
	fn := func(context.Context, args) (octet.Result, error) { return octet.Text("ok"), nil }
	for b.Loop() {
		if _, err := octet.DefineTool(octet.ToolSpec{Name: "publish", Description: "Publish bytes"}, fn); err != nil {
			b.Fatal(err)
		}
	}
}
