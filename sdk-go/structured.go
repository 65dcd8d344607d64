package octet

import (
	"context"
	"encoding/json"
	"fmt"
)

// DefineStructuredTool builds a tool whose result is a typed value, as DefineTool
// builds one whose arguments are: the output schema is derived from Out (a struct,
// by internal/reflectschema, with the same rules as arguments) unless
// spec.OutputSchema is set, the returned value becomes structured_content (checked
// against that schema before it is sent), and its JSON is also the result's text part,
// for hosts and models that read only text. An error from fn is a handler error, as in
// DefineTool; return a Result from a DefineTool handler for an is_error result.
func DefineStructuredTool[Args, Out any](spec ToolSpec, fn func(ctx context.Context, args Args) (Out, error)) (*ToolDef, error) {
	if spec.OutputSchema == nil {
		doc, err := reflectObject[Out]("result")
		if err != nil {
			return nil, fmt.Errorf("octet: tool %q: %v", spec.Name, err)
		}
		spec.OutputSchema = doc
	}
	name := spec.Name
	return DefineTool(spec, func(ctx context.Context, args Args) (Result, error) {
		out, err := fn(ctx, args)
		if err != nil {
			return Result{}, err
		}
		raw, err := json.Marshal(out)
		if err != nil {
			return Result{}, fmt.Errorf("tool %q result: %v", name, err)
		}
		return Result{Content: []Content{TextContent(string(raw))}, StructuredContent: json.RawMessage(raw)}, nil
	})
}

// StructuredTool defines a structured tool (DefineStructuredTool) and registers it in
// the bootstrap catalog. It panics on an invalid spec, a programming error found at
// start-up.
func StructuredTool[Args, Out any](ext *Extension, spec ToolSpec, fn func(ctx context.Context, args Args) (Out, error)) *ToolDef {
	t, err := DefineStructuredTool(spec, fn)
	if err != nil {
		panic(err)
	}
	ext.addTool(t)
	return t
}

// OutputSchema returns the tool's output schema as sent to the host, or nil.
func (t *ToolDef) OutputSchema() map[string]any { return t.spec.OutputSchema }
