package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Hook dispositions (hooks.schema.json HookDisposition): the host runs a hook point on
// every running extension that registered it, in extension-name order, and applies each
// answer before the next sees the operation. continue proceeds; block stops the operation
// (a *HookBlockedError, nothing is sent); replace proceeds with the replacement the point
// takes: the prompt (before_prompt), the tool arguments (before_tool_call, still checked
// against the tool's parameters) or the output the model sees (after_tool_call). A hook
// that fails (an error answer, a timeout, a result the host refused) fails the operation
// (a *HookError): a safety hook that crashed must not be read as "continue". Extensions
// that are not running (parked, stopped) are skipped.

// HookBlockedError is an operation a hook's disposition blocked.
type HookBlockedError struct {
	Extension, Hook string
	Tool            string // before_tool_call / after_tool_call: the tool
	Message         string // the disposition's message
}

func (e *HookBlockedError) Error() string {
	what := "the prompt"
	if e.Tool != "" {
		what = fmt.Sprintf("tool %q", e.Tool)
	}
	msg := e.Message
	if msg == "" {
		msg = "(no message)"
	}
	return fmt.Sprintf("extension %s: %s hook blocked %s: %s", e.Extension, e.Hook, what, msg)
}

// HookError is a hook that could not be applied: it failed or answered a disposition the
// hook point cannot take. Owner marks the session owner's hook (owner.go): its hooks are
// policy, not observation, so even an owner that is not running fails the operation.
type HookError struct {
	Extension, Hook string
	Owner           bool
	Err             error
}

func (e *HookError) Error() string {
	if e.Owner {
		return fmt.Sprintf("session owner %s: %s hook failed (%s), the turn is stopped: %v", e.Extension, e.Hook, e.Kind(), e.Err)
	}
	return fmt.Sprintf("extension %s: %s hook failed: %v", e.Extension, e.Hook, e.Err)
}

// Kind classifies the failure: timeout, transport (the process died), unavailable (not
// running: parked, stopped, restarting), refused (an error answer) or invalid (a result or
// disposition the host could not apply).
func (e *HookError) Kind() string {
	var te *TimeoutError
	var tr *TransportError
	var ue *UnavailableError
	var we *jsonrpc.Error
	switch {
	case errors.As(e.Err, &te):
		return "timeout"
	case errors.As(e.Err, &tr), errors.Is(e.Err, ErrTransport):
		return "transport"
	case errors.As(e.Err, &ue):
		return "unavailable"
	case errors.As(e.Err, &we):
		return "refused"
	}
	return "invalid"
}

func (e *HookError) Unwrap() error { return e.Err }

// disposition is a hook's answer, the generated type (checkedRequest has already judged
// the hook/run result against HookRunResult).
type disposition = protocol.HookDisposition

// runHook runs hook on every extension that registered it, handing each disposition to
// apply, which updates params (the payload the next extension sees).
func (h *Host) runHook(ctx context.Context, hook string, params *protocol.HookRunParams, apply func(ext string, d disposition) error) error {
	owner := h.Owner()
	for _, e := range h.Extensions() {
		isOwner := e.name == owner
		raw, err := e.runHook(ctx, hook, params)
		var nr *NotRegisteredError
		var ue *UnavailableError
		switch {
		case errors.As(err, &nr):
			continue
		case errors.As(err, &ue) && !(isOwner && slices.Contains(e.entry.Manifest.Contributes.Hooks, hook)):
			// An observer that is not running is skipped; the owner is not, for a hook its
			// manifest declares (the upper bound of what its handshake may register).
			continue
		case err != nil:
			return &HookError{Extension: e.name, Hook: hook, Owner: isOwner, Err: err}
		}
		var res protocol.HookRunResult
		if err := json.Unmarshal(raw, &res); err != nil {
			return &HookError{Extension: e.name, Hook: hook, Owner: isOwner, Err: err}
		}
		if res.Disposition == nil || res.Disposition.Action == "continue" {
			continue
		}
		if err := apply(e.name, *res.Disposition); err != nil {
			return err
		}
	}
	return nil
}

// BeforeToolCall runs before_tool_call for a call of tool with args (a JSON object; nil
// means {}) and returns the arguments to send.
func (h *Host) BeforeToolCall(ctx context.Context, tool string, args json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	run := &protocol.HookRunBeforeToolCall{Payload: protocol.BeforeToolCallPayload{Name: tool, Arguments: args}}
	err := h.runHook(ctx, "before_tool_call", &protocol.HookRunParams{HookRunBeforeToolCall: run}, func(ext string, d disposition) error {
		switch d.Action {
		case "block":
			return &HookBlockedError{Extension: ext, Hook: "before_tool_call", Tool: tool, Message: deref(d.Message)}
		case "replace":
			if d.Arguments == nil {
				return &HookError{Extension: ext, Hook: "before_tool_call", Err: errors.New(`disposition replace carries no "arguments"`)}
			}
			// The replacement is the bytes the extension sent (validated as an object
			// with its result), passed on as they are.
			args = d.Arguments
			run.Payload.Arguments = args
		}
		return nil
	})
	return args, err
}

// AfterToolCall runs after_tool_call for the result of a call of tool with args and
// returns the result to pass on: a replace puts its output in place of the content (one
// text part; API 0.1: the content string), keeping is_error and the other members.
func (h *Host) AfterToolCall(ctx context.Context, tool string, args, result json.RawMessage) (json.RawMessage, error) {
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	var res map[string]json.RawMessage
	if err := json.Unmarshal(result, &res); err != nil {
		return nil, fmt.Errorf("after_tool_call: result of %q is not an object: %v", tool, err)
	}
	output, isError := resultText(res)
	run := &protocol.HookRunAfterToolCall{Payload: protocol.AfterToolCallPayload{Name: tool, Arguments: args, Output: output, IsError: isError}}
	replaced := false
	err := h.runHook(ctx, "after_tool_call", &protocol.HookRunParams{HookRunAfterToolCall: run}, func(ext string, d disposition) error {
		switch d.Action {
		case "block":
			return &HookBlockedError{Extension: ext, Hook: "after_tool_call", Tool: tool, Message: deref(d.Message)}
		case "replace":
			if d.Output == nil {
				return &HookError{Extension: ext, Hook: "after_tool_call", Err: errors.New(`disposition replace carries no "output"`)}
			}
			output, replaced = *d.Output, true
			run.Payload.Output = output
		}
		return nil
	})
	if err != nil || !replaced {
		return result, err
	}
	var content any = []any{map[string]any{"type": "text", "text": output}}
	if len(res["content"]) > 0 && res["content"][0] == '"' {
		content = output // API 0.1
	}
	res["content"], _ = json.Marshal(content)
	return json.Marshal(res)
}

// BeforePrompt runs before_prompt and returns the prompt to send.
func (h *Host) BeforePrompt(ctx context.Context, prompt string) (string, error) {
	run := &protocol.HookRunBeforePrompt{Payload: protocol.BeforePromptPayload{Prompt: prompt}}
	err := h.runHook(ctx, "before_prompt", &protocol.HookRunParams{HookRunBeforePrompt: run}, func(ext string, d disposition) error {
		switch d.Action {
		case "block":
			return &HookBlockedError{Extension: ext, Hook: "before_prompt", Message: deref(d.Message)}
		case "replace":
			if d.Prompt == nil {
				return &HookError{Extension: ext, Hook: "before_prompt", Err: errors.New(`disposition replace carries no "prompt"`)}
			}
			prompt = *d.Prompt
			run.Payload.Prompt = prompt
		}
		return nil
	})
	return prompt, err
}

// resultText is the text a tool result shows (its text parts joined; API 0.1: the
// content string) and its is_error.
func resultText(res map[string]json.RawMessage) (string, bool) {
	var isError bool
	_ = json.Unmarshal(res["is_error"], &isError)
	var s string
	if json.Unmarshal(res["content"], &s) == nil {
		return s, isError
	}
	var parts []struct {
		Type, Text string
	}
	_ = json.Unmarshal(res["content"], &parts)
	for _, p := range parts {
		if p.Type == "text" {
			s += p.Text
		}
	}
	return s, isError
}

// deref is *p, or "" for an absent optional string.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
