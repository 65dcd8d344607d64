package octet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ToolSpec describes a tool. Parameters overrides the schema derived from the
// argument type; OutputSchema (API 0.2/0.4 only) makes structured_content required
// and checked.
type ToolSpec struct {
	Name         string
	Description  string
	Parameters   map[string]any
	OutputSchema map[string]any
}

// ToolDef is a tool ready to serve: its definition, compiled schemas and handler.
// Tool registers one in the bootstrap catalog; RegisterTools publishes ones made by
// DefineTool or DefineRawTool at run time.
type ToolDef struct {
	spec   ToolSpec
	params *compiledSchema
	output *compiledSchema
	call   func(ctx context.Context, args json.RawMessage) (Result, error)
}

// Name returns the tool's name.
func (t *ToolDef) Name() string { return t.spec.Name }

// Parameters returns the tool's parameters schema as sent to the host.
func (t *ToolDef) Parameters() map[string]any { return t.params.doc }

// DefineTool builds a typed tool: arguments are validated against the parameters
// schema (derived from Args by internal/reflectschema, the rules of docs/go.md,
// unless spec.Parameters is set), a mismatch is answered -32602 naming the path,
// then decoded into Args.
//
// A schema given as spec.Parameters is compiled here, so an invalid one is an
// error here; a derived one is compiled on the tool's first call (see
// deferSchema), and should a jsonschema tag make it invalid (a pattern that is
// not a regular expression, say), that call fails with internal_error.
func DefineTool[Args any](spec ToolSpec, fn func(ctx context.Context, args Args) (Result, error)) (*ToolDef, error) {
	derived := spec.Parameters == nil
	if derived {
		doc, err := reflectParameters[Args]()
		if err != nil {
			return nil, fmt.Errorf("octet: tool %q: %v", spec.Name, err)
		}
		spec.Parameters = doc
	}
	return defineTool(spec, derived, func(ctx context.Context, raw json.RawMessage) (Result, error) {
		var args Args
		// An integral 7.0 passed the schema as an integer (draft 2020-12); an int
		// field receives it as 7.
		if err := json.Unmarshal(integralArgs(raw), &args); err != nil {
			return Result{}, invalidParams("/arguments", "%v", err)
		}
		return fn(ctx, args)
	})
}

// DefineRawTool builds a tool whose handler receives the validated arguments
// object as raw JSON; spec.Parameters is required.
func DefineRawTool(spec ToolSpec, fn func(ctx context.Context, args json.RawMessage) (Result, error)) (*ToolDef, error) {
	return defineTool(spec, false, fn)
}

// defineTool checks spec and builds the tool; derived says the SDK derived
// spec.Parameters itself, whose compilation is then deferred.
func defineTool(spec ToolSpec, derived bool, fn func(ctx context.Context, args json.RawMessage) (Result, error)) (*ToolDef, error) {
	if !toolNamePattern.MatchString(spec.Name) {
		return nil, fmt.Errorf("octet: tool name %q must match %s", spec.Name, toolNamePattern)
	}
	if utf8.RuneCountInString(spec.Description) > 4096 {
		return nil, fmt.Errorf("octet: tool %q: description longer than 4096 characters", spec.Name)
	}
	if spec.Parameters == nil {
		return nil, fmt.Errorf("octet: tool %q: a raw tool needs Parameters", spec.Name)
	}
	what := fmt.Sprintf("tool %q: parameters schema", spec.Name)
	var params *compiledSchema
	var err error
	if derived {
		params = deferSchema(spec.Parameters, what)
	} else if params, err = compileSchema(spec.Parameters, what); err != nil {
		return nil, fmt.Errorf("octet: %v", err)
	}
	t := &ToolDef{spec: spec, params: params, call: fn}
	if spec.OutputSchema != nil {
		if t.output, err = compileSchema(spec.OutputSchema, fmt.Sprintf("tool %q: output_schema", spec.Name)); err != nil {
			return nil, fmt.Errorf("octet: %v", err)
		}
	}
	return t, nil
}

// Tool defines a typed tool and registers it in the bootstrap catalog (the tools
// initialize announces; their names must equal the manifest's). It panics on an
// invalid spec, a programming error found at start-up.
func Tool[Args any](ext *Extension, spec ToolSpec, fn func(ctx context.Context, args Args) (Result, error)) *ToolDef {
	t, err := DefineTool(spec, fn)
	if err != nil {
		panic(err)
	}
	ext.addTool(t)
	return t
}

// RawTool registers a tool whose handler receives raw JSON arguments.
func (e *Extension) RawTool(spec ToolSpec, fn func(ctx context.Context, args json.RawMessage) (Result, error)) *ToolDef {
	t, err := DefineRawTool(spec, fn)
	if err != nil {
		panic(err)
	}
	e.addTool(t)
	return t
}

func (e *Extension) addTool(t *ToolDef) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, have := range e.tools {
		if have.spec.Name == t.spec.Name {
			panic(fmt.Sprintf("octet: tool %q registered twice", t.spec.Name))
		}
	}
	e.tools = append(e.tools, t)
}

// definition is the tool's ToolDefinition for the wire: the protocol type, its schemas
// encoded once here (a schema document is JSON data, so encoding cannot fail).
func (t *ToolDef) definition(apiVersion string) protocol.ToolDefinition {
	d := protocol.ToolDefinition{Name: t.spec.Name, Description: t.spec.Description}
	d.Parameters, _ = marshalTree(t.params.doc)
	if t.output != nil && apiVersion != "0.1" {
		d.OutputSchema, _ = marshalTree(t.output.doc)
	}
	return d
}

// invoke validates the arguments (args is their strictjson tree, raw their
// bytes), runs the handler and shapes the result.
func (t *ToolDef) invoke(ctx context.Context, apiVersion string, args any, raw json.RawMessage) (any, error) {
	if raw == nil {
		args, raw = map[string]any{}, json.RawMessage("{}")
	}
	if _, err := t.params.schema(); err != nil {
		return nil, fmt.Errorf("octet: %v", err) // internal_error: the caller is not at fault
	}
	if err := t.params.validateDoc(args); err != nil {
		var se *schemaError
		if errors.As(err, &se) {
			return nil, argumentsError(se.fault)
		}
		return nil, invalidParams("/arguments", "%v", err)
	}
	res, err := t.call(ctx, raw)
	if err != nil {
		return nil, handlerError(t.spec.Name, err)
	}
	out, err := res.wire(apiVersion, t)
	if err != nil {
		return nil, err // internal_error: the tool broke the result contract
	}
	return out, nil
}

// argumentsError is the contract's -32602 for arguments failing the tool's
// parameters (docs/conformance.md#validation-faults): the same message and data
// from every SDK.
func argumentsError(f fault) *Error {
	p := f.pointer()
	return jsonrpc.NewError(protocol.CodeInvalidParams, "invalid arguments: "+rootOr(p)+": "+f.reason,
		map[string]string{"keyword": f.keyword, "path": "/arguments" + p, "pointer": p, "reason": f.reason})
}
