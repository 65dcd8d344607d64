package conformance

import (
	"encoding/json"
	"errors"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Hook dispositions reach the operation: through the reference host library, the fixture's
// before_prompt, before_tool_call and after_tool_call answers (docs/design/fixture.md) are
// applied exactly: block stops the operation with the hook's message, replace changes the
// prompt, the arguments the tool gets, or the output the caller gets.

func init() {
	register(&Check{
		Name:        "hooks.dispositions_applied",
		Description: "through the reference host, the fixture's hook dispositions take effect: before_prompt block/replace the prompt, before_tool_call block the call or replace its arguments (the tool gets the replacement), after_tool_call replace the output or withhold the result",
		Requirement: "hooks.schema.json HookDisposition (continue, block, replace: prompt, arguments, output); docs/design/wire.md hook payloads",
		Tier:        Conditional,
		Tools:       []string{"echo"},
		Covers:      []string{protocol.MethodHookRun},
		Run:         checkHookDispositions,
	})
}

func checkHookDispositions(t *T) error {
	h, stop, err := referenceHost(t)
	if err != nil {
		return err
	}
	defer stop()
	blocked := func(what string, err error, message string) error {
		var hb *host.HookBlockedError
		if !errors.As(err, &hb) || hb.Message != message {
			return fail(what+" blocked with message "+message, "%v", err)
		}
		return nil
	}
	if p, err := h.BeforePrompt(t.Ctx, "hook:rewrite"); err != nil || p != "rewritten by the fixture" {
		return fail(`before_prompt to replace "hook:rewrite" with "rewritten by the fixture"`, "%q, %v", p, err)
	}
	_, err = h.BeforePrompt(t.Ctx, "hook:block")
	if e := blocked("the prompt", err, "blocked by the fixture"); e != nil {
		return e
	}
	_, err = h.BeforeToolCall(t.Ctx, "echo", mustJSON(map[string]any{"value": "hook:block"}))
	if e := blocked("the echo call", err, "blocked by the fixture"); e != nil {
		return e
	}
	args, err := h.BeforeToolCall(t.Ctx, "echo", mustJSON(map[string]any{"value": "hook:rewrite"}))
	if err != nil {
		return fail("before_tool_call to replace the arguments", "%v", err)
	}
	out, _, err := h.CallTool(t.Ctx, "echo", args)
	var r toolResult
	if err != nil || json.Unmarshal(out, &r) != nil || !jsonEqual(r.StructuredContent, mustJSON(map[string]any{"value": "rewritten by the fixture"})) {
		return fail(`echo to get the replacement arguments {"value": "rewritten by the fixture"}`, "%s, %v", excerpt(out, 200), err)
	}
	replaceArgs := mustJSON(map[string]any{"value": "hook:replace"})
	out, _, err = h.CallTool(t.Ctx, "echo", replaceArgs)
	if err != nil {
		return fail("echo through the reference host", "%v", err)
	}
	replaced, err := h.AfterToolCall(t.Ctx, "echo", replaceArgs, out)
	if err != nil || json.Unmarshal(replaced, &r) != nil || len(r.Content) != 1 || r.Content[0].Text != "replaced by the fixture" {
		return fail(`after_tool_call to replace the output with "replaced by the fixture"`, "%s, %v", excerpt(replaced, 200), err)
	}
	_, err = h.AfterToolCall(t.Ctx, "echo", mustJSON(map[string]any{"value": "hook:withhold"}), out)
	return blocked("the echo result", err, "withheld by the fixture")
}
