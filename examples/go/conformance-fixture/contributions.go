package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	octet "github.com/octet-kit/octet/sdk-go"
)

func itoa(i int) string { return strconv.Itoa(i) }

// registerContributions: command, hooks, context, status, renderer, lifecycle.
func registerContributions(ext *octet.Extension) {
	ext.Command("fixture_cmd", "Join the arguments", func(ctx context.Context, args []string) (octet.CommandResult, error) {
		return octet.CommandResult{Text: strings.Join(args, " ")}, nil
	})
	ext.Hook("before_prompt", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		return octet.Continue(), nil
	})
	ext.Hook("after_tool_call", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		return octet.HookResult{}, nil
	})
	ext.Context(func(ctx context.Context, params json.RawMessage) ([]octet.ContextItem, error) {
		return []octet.ContextItem{{Label: "fixture", Content: "fixture context", Placement: "system_suffix"}}, nil
	})
	ext.Status("status", func(ctx context.Context, params json.RawMessage) (octet.StatusResult, error) {
		return octet.StatusResult{Surface: "status", Text: "fixture ready", Priority: 0}, nil
	})
	ext.Renderer("echo", func(ctx context.Context, params json.RawMessage) ([]octet.Segment, error) {
		return []octet.Segment{{Text: "echo", StyleRole: nil}}, nil
	})
	ext.OnLifecycle("turn_settled", func(ctx context.Context, ev octet.LifecycleEvent) {
		ext.Log().Info("turn settled", "session_id", ev.SessionID, "turn_id", ev.TurnID, "outcome", ev.Outcome)
	})
}
