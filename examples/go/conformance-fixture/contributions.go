package main

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
)

func itoa(i int) string { return strconv.Itoa(i) }

// registerContributions: command, hooks, context, status, renderer, lifecycle.
func registerContributions(ext *octet.Extension) {
	ext.Command("fixture_cmd", "Join the arguments", func(ctx context.Context, args []string) (octet.CommandResult, error) {
		return octet.CommandResult{Text: strings.Join(args, " ")}, nil
	})
	ext.Command("slow_cmd", "Wait the first argument in ms", func(ctx context.Context, args []string) (octet.CommandResult, error) {
		arg := ""
		if len(args) > 0 {
			arg = args[0]
		}
		if msg, ok := strings.CutPrefix(arg, "fail:"); ok {
			return octet.CommandResult{}, errors.New(msg) // uncaught: -32603 naming it
		}
		if err := ext.Progress.Report(ctx, octet.StatusMessage("waiting")); err != nil {
			return octet.CommandResult{}, err
		}
		ms, _ := strconv.Atoi(arg)
		if err := wait(ctx, ms); err != nil {
			return octet.CommandResult{}, err
		}
		return octet.CommandResult{Text: "slept"}, nil
	})
	ext.Hook("before_prompt", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		var p struct {
			Prompt string `json:"prompt"`
		}
		_ = json.Unmarshal(payload, &p)
		if err := slowPrompt(ctx, p.Prompt); err != nil {
			return octet.HookResult{}, err
		}
		switch p.Prompt {
		case "hook:block":
			return octet.Block("blocked by the fixture"), nil
		case "hook:rewrite":
			return octet.ReplacePrompt("rewritten by the fixture"), nil
		}
		return octet.Continue(), nil
	})
	// The tool hooks answer the dispositions hooks.dispositions_applied expects the host
	// to apply, chosen by the call's "value" argument (docs/design/fixture.md).
	ext.Hook("before_tool_call", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		switch hookValue(payload) {
		case "hook:block":
			return octet.Block("blocked by the fixture"), nil
		case "hook:rewrite":
			return octet.ReplaceArguments(map[string]any{"value": "rewritten by the fixture"}), nil
		}
		return octet.Continue(), nil
	})
	ext.Hook("after_tool_call", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		switch hookValue(payload) {
		case "hook:replace":
			return octet.ReplaceOutput("replaced by the fixture"), nil
		case "hook:withhold":
			return octet.Block("withheld by the fixture"), nil
		}
		return octet.HookResult{}, nil
	})
	ext.Context(func(ctx context.Context, params json.RawMessage) ([]octet.ContextItem, error) {
		var p struct {
			Prompt string `json:"prompt"`
		}
		_ = json.Unmarshal(params, &p)
		if err := slowPrompt(ctx, p.Prompt); err != nil {
			return nil, err
		}
		return []octet.ContextItem{{Label: "fixture", Content: "fixture context", Placement: "system_suffix"}}, nil
	})
	ext.Status("status", func(ctx context.Context, params json.RawMessage) (octet.StatusResult, error) {
		var p struct {
			Owner struct {
				SessionID string `json:"session_id"`
			} `json:"resource_owner"`
		}
		_ = json.Unmarshal(params, &p)
		if err := slowPrompt(ctx, p.Owner.SessionID); err != nil {
			return octet.StatusResult{}, err
		}
		return octet.StatusResult{Surface: "status", Text: "fixture ready", Priority: 0}, nil
	})
	ext.Renderer("echo", func(ctx context.Context, params json.RawMessage) ([]octet.Segment, error) {
		var p struct {
			Arguments struct {
				Value any `json:"value"`
			} `json:"arguments"`
		}
		_ = json.Unmarshal(params, &p)
		if v, ok := p.Arguments.Value.(string); ok {
			if err := slowPrompt(ctx, v); err != nil {
				return nil, err
			}
		}
		return []octet.Segment{{Text: "echo"}}, nil // the zero StyleRole is null
	})
	ext.OnLifecycle("turn_settled", func(ctx context.Context, ev octet.LifecycleNotification) {
		ext.Log().Info("turn settled", "session_id", ev.SessionID, "turn_id", ev.TurnID, "outcome", ev.Outcome)
	})
}

// wait sleeps ms while watching cancellation; cancelled, it returns ctx.Err(),
// which the SDK answers -32800.
func wait(ctx context.Context, ms int) error {
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// slowPrompt waits when a prompt (or rendered echo value) is "slow:<ms>", and fails
// with an ordinary (uncaught) error when it is "fail:<message>" (fixture.md).
func slowPrompt(ctx context.Context, prompt string) error {
	if msg, ok := strings.CutPrefix(prompt, "fail:"); ok {
		return errors.New(msg)
	}
	rest, ok := strings.CutPrefix(prompt, "slow:")
	if !ok {
		return nil
	}
	ms, _ := strconv.Atoi(rest)
	return wait(ctx, ms)
}

// hookValue is the "value" argument of the tool call a tool hook's payload describes.
func hookValue(payload json.RawMessage) string {
	var p struct {
		Arguments struct {
			Value any `json:"value"`
		} `json:"arguments"`
	}
	_ = json.Unmarshal(payload, &p)
	s, _ := p.Arguments.Value.(string)
	return s
}
