package conformance

import (
	"fmt"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// An uncaught failure in a handler that is not a tool: -32603 carrying its message.

func init() {
	register(&Check{
		Name:        "errors.uncaught",
		Description: "an ordinary uncaught error in a command, hook, context provider, status surface or renderer is answered -32603 with the error's message, and the extension keeps serving",
		Requirement: "wire.md §1 error registry: an uncaught handler exception is -32603 with the exception's message",
		Tier:        Conditional,
		Fixture:     true,
		Covers: []string{
			reqError(protocol.MethodCommandExecute, protocol.CodeInternalError),
			reqError(protocol.MethodHookRun, protocol.CodeInternalError),
			reqError(protocol.MethodContextCollect, protocol.CodeInternalError),
			reqError(protocol.MethodStatusCollect, protocol.CodeInternalError),
			reqError(protocol.MethodToolRender, protocol.CodeInternalError),
		},
		Run: checkUncaught,
	})
}

// FailPrefix makes a fixture command, hook, context provider or renderer fail with an
// ordinary error: its argument (or prompt, or rendered echo value) is "fail:<message>".
const FailPrefix = "fail:"

func checkUncaught(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	for _, c := range []struct {
		method string
		params func(string) map[string]any
	}{
		{protocol.MethodCommandExecute, func(p string) map[string]any { return map[string]any{"name": "slow_cmd", "arguments": []string{p}} }},
		{protocol.MethodHookRun, func(p string) map[string]any {
			return map[string]any{"hook": "before_prompt", "payload": map[string]any{"prompt": p}}
		}},
		{protocol.MethodContextCollect, func(p string) map[string]any { return map[string]any{"session_id": conformanceSession, "prompt": p} }},
		{protocol.MethodStatusCollect, func(p string) map[string]any {
			return map[string]any{"surface": "status", "resource_owner": fixtureOwner(p)}
		}},
		{protocol.MethodToolRender, func(p string) map[string]any {
			return map[string]any{"name": "echo", "arguments": map[string]any{"value": p},
				"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo"}}}}
		}},
	} {
		msg := "conformance failure in " + c.method
		resp, err := s.Call(t.Ctx, t.Timeout(), c.method, c.params(FailPrefix+msg))
		if err != nil {
			return fmt.Errorf("%s: %w", c.method, err)
		}
		if err := expectCode(resp, -32603, "an uncaught error in "+c.method); err != nil {
			return err
		}
		if !strings.Contains(resp.Error.Message, msg) {
			return fail(fmt.Sprintf("the -32603 message to carry the error's %q", msg), "%q", resp.Error.Message)
		}
	}
	resp, err := t.toolCall(s, "echo", map[string]any{"value": "after"})
	if err != nil {
		return fail("the extension to keep serving after five uncaught errors", "%v", err)
	}
	return expectEcho(resp, "after")
}
