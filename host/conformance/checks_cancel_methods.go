package conformance

import (
	"fmt"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Cancellation of the requests that are not tool calls: a command, a hook, a
// context provider and a renderer each watch cancellation like a tool does.

func init() {
	register(&Check{
		Name:        "cancel.other_methods",
		Description: "$/cancelRequest reaches a running command, hook, context provider, status surface and renderer, each answering -32800 at once",
		Requirement: "wire.md §1 $/cancelRequest; schema/methods.json cancellable for command/execute, hook/run, context/collect, tool/render",
		Tier:        Conditional,
		Fixture:     true,
		Features:    []protocol.Feature{protocol.FeatureRequestCancellation},
		Covers: []string{
			reqCancellable(protocol.MethodCommandExecute), reqError(protocol.MethodCommandExecute, protocol.CodeRequestCancelled),
			reqCancellable(protocol.MethodHookRun), reqError(protocol.MethodHookRun, protocol.CodeRequestCancelled),
			reqCancellable(protocol.MethodContextCollect), reqError(protocol.MethodContextCollect, protocol.CodeRequestCancelled),
			reqCancellable(protocol.MethodStatusCollect), reqError(protocol.MethodStatusCollect, protocol.CodeRequestCancelled),
			reqCancellable(protocol.MethodToolRender), reqError(protocol.MethodToolRender, protocol.CodeRequestCancelled),
		},
		Run: checkCancelOtherMethods,
	})
}

// SlowPrefix asks a fixture hook, context provider, status surface or renderer to
// wait: its prompt (the echo value it renders; for status, the resource_owner's
// session_id, its only free-form input) is "slow:<ms>" (docs/design/fixture.md).
const SlowPrefix = "slow:"

// fixtureOwner is a resource_owner whose session_id drives the fixture's status surface.
func fixtureOwner(sessionID string) map[string]any {
	return map[string]any{"session_id": sessionID, "extension_instance_id": "conformance-instance", "process_generation": 1}
}

func checkCancelOtherMethods(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	slow := SlowPrefix + "60000"
	calls := []struct {
		method string
		params map[string]any
	}{
		{protocol.MethodCommandExecute, map[string]any{"name": "slow_cmd", "arguments": []string{"60000"}}},
		{protocol.MethodHookRun, map[string]any{"hook": "before_prompt", "payload": map[string]any{"prompt": slow}}},
		{protocol.MethodContextCollect, map[string]any{"session_id": "conformance-session", "prompt": slow}},
		{protocol.MethodStatusCollect, map[string]any{"surface": "status", "resource_owner": fixtureOwner(slow)}},
		{protocol.MethodToolRender, map[string]any{"name": "echo", "arguments": map[string]any{"value": slow},
			"result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo"}}}}},
	}
	for _, c := range calls {
		id, ch, err := s.Send(c.method, c.params)
		if err != nil {
			return err
		}
		// An echo answered after the request shows it was admitted and is running.
		if resp, err := t.toolCall(s, "echo", map[string]any{"value": "alive"}); err != nil {
			return err
		} else if err := expectEcho(resp, "alive"); err != nil {
			return err
		}
		select {
		case resp := <-ch:
			return fail(c.method+" to still be waiting (asked to wait 60 s)", "%s", resp)
		default:
		}
		sent := time.Now()
		if err := s.Cancel(id); err != nil {
			return err
		}
		resp, err := t.wait(s, id, ch)
		if err != nil {
			return fail(fmt.Sprintf("%s answered -32800 within %s of $/cancelRequest", c.method, t.Timeout()), "%v", err)
		}
		if err := expectCode(resp, -32800, c.method+" cancelled"); err != nil {
			return err
		}
		t.Note("%s cancelled in %s", c.method, time.Since(sent).Round(time.Microsecond))
	}
	// Not slow: the same contributions answer normally.
	resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodCommandExecute, map[string]any{"name": "slow_cmd", "arguments": []string{"1"}})
	if err != nil {
		return err
	}
	if resp.Error != nil || !jsonEqual(resp.Result, []byte(`{"text":"slept"}`)) {
		return fail(`slow_cmd ["1"] answering {"text":"slept"}`, "%s", resp)
	}
	return nil
}
