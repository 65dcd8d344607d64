// Command hooks-context-status shows every contribution point besides tools: a
// before_prompt hook that blocks empty prompts, an after_tool_call hook, prompt
// context, a status surface, a renderer for word_count, a slash command, and a
// lifecycle subscription counting settled turns.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	octet "github.com/octet-kit/octet/sdk-go"
)

func main() {
	ext := octet.New(octet.Options{})
	var turns, toolCalls atomic.Int64

	octet.Tool(ext, octet.ToolSpec{Name: "word_count", Description: "Count the words in a text"},
		func(ctx context.Context, a struct {
			Text string `json:"text"`
		}) (octet.Result, error) {
			return octet.Text(fmt.Sprint(len(strings.Fields(a.Text)))), nil
		})
	ext.Hook("before_prompt", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		var p struct {
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(payload, &p); err != nil {
			return octet.HookResult{}, err
		}
		if strings.TrimSpace(p.Prompt) == "" {
			return octet.Block("the prompt is empty"), nil
		}
		return octet.Continue(), nil
	})
	ext.Hook("after_tool_call", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		toolCalls.Add(1)
		return octet.HookResult{}, nil
	})
	ext.Context(func(ctx context.Context, params json.RawMessage) ([]octet.ContextItem, error) {
		return []octet.ContextItem{{Label: "house style", Content: "Answer in plain English.", Placement: "system_suffix"}}, nil
	})
	ext.Status("status", func(ctx context.Context, params json.RawMessage) (octet.StatusResult, error) {
		return octet.StatusResult{Surface: "status", Text: fmt.Sprintf("%d turns, %d tool calls", turns.Load(), toolCalls.Load())}, nil
	})
	ext.Renderer("word_count", func(ctx context.Context, params json.RawMessage) ([]octet.Segment, error) {
		return []octet.Segment{{Text: "words: "}, octet.Styled("counted", "accent")}, nil
	})
	ext.Command("turns", "Show how many turns settled", func(ctx context.Context, args []string) (octet.CommandResult, error) {
		return octet.CommandResult{Text: fmt.Sprintf("%d turns settled", turns.Load())}, nil
	})
	ext.OnLifecycle("turn_settled", func(ctx context.Context, ev octet.LifecycleNotification) {
		if turns.Add(1)%10 == 0 {
			_ = ext.UI.Notify(ctx, fmt.Sprintf("%d turns settled", turns.Load()))
		}
	})
	ext.Run()
}
