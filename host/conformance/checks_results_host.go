package conformance

import (
	"encoding/json"
	"slices"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The host checks everything an extension returns (seed 002: the host is the authority):
// this check makes one call of every host→extension method the fixture serves and judges
// each answer with the reference host's own rules (host.JudgeResult: the schema's result
// type for the negotiated API version and a tool's declared output_schema), so an
// extension certified here is one whose results a real host passes on.

func init() {
	register(&Check{
		Name:        "results.checked_by_host",
		Description: "every result the extension returns (tool, command, hook, context, status, render) passes the reference host's own result checks: the schema's result type for the negotiated API version, and the tool's output_schema",
		Requirement: "schema/methods.json result types; docs/design/wire.md §4 tool results (structured_content required exactly when output_schema is declared)",
		Tier:        Conditional,
		Tools:       []string{"echo", "typed"},
		Covers:      slices.Clone(protocol.WorkMethods),
		Run:         checkResultsByHost,
	})
}

func checkResultsByHost(t *T) error {
	s, init, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	outputs := map[string]json.RawMessage{}
	for _, tool := range init.Tools {
		outputs[tool.Name] = tool.OutputSchema
	}
	rendered := map[string]any{"content": []any{map[string]any{"type": "text", "text": "rendered by conformance"}}}
	if init.APIVersion == "0.1" {
		rendered = map[string]any{"content": "rendered by conformance"}
	}
	calls := []struct {
		method, name string
		params       map[string]any
	}{
		{protocol.MethodToolCall, "echo", map[string]any{"name": "echo", "arguments": map[string]any{"value": "judged"}}},
		{protocol.MethodToolCall, "typed", map[string]any{"name": "typed", "arguments": map[string]any{"count": 3, "label": "x"}}},
		{protocol.MethodCommandExecute, "fixture_cmd", map[string]any{"name": "fixture_cmd", "arguments": []string{"judged"}}},
		{protocol.MethodHookRun, "before_prompt", map[string]any{"hook": "before_prompt", "payload": hookPayloads["before_prompt"]}},
		{protocol.MethodContextCollect, "context", map[string]any{"session_id": "conformance-session", "prompt": "conformance prompt"}},
		{protocol.MethodStatusCollect, "status", map[string]any{"surface": "status"}},
		{protocol.MethodToolRender, "echo", map[string]any{"name": "echo", "arguments": map[string]any{}, "result": rendered}},
	}
	for _, c := range calls {
		if c.method != protocol.MethodToolCall && !t.Ext.contributes(c.method, c.name) {
			continue
		}
		resp, err := s.Call(t.Ctx, t.Timeout(), c.method, c.params)
		if err != nil {
			return err
		}
		if resp.Error != nil {
			return fail("a "+c.method+" result for "+c.name, "%s", resp.Error)
		}
		if err := host.JudgeResult(c.method, init.APIVersion, c.name, resp.Result, outputs[c.name]); err != nil {
			return fail("a "+c.method+" result the host passes on", "%v", err)
		}
	}
	return nil
}

// contributes reports whether the manifest declares the contribution a typed call needs.
func (e *Extension) contributes(method, name string) bool {
	c := e.Manifest.Contributes
	switch method {
	case protocol.MethodCommandExecute:
		return slices.Contains(c.Commands, name)
	case protocol.MethodHookRun:
		return slices.Contains(c.Hooks, name)
	case protocol.MethodContextCollect:
		return c.Context
	case protocol.MethodStatusCollect:
		return slices.Contains(c.UI, name)
	case protocol.MethodToolRender:
		return slices.Contains(c.ToolRenderers, name)
	}
	return true
}
