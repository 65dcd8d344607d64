package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Checks of the contribution methods (hooks, context, status, renderers, commands)
// and of lifecycle notifications. They bind any extension that declares the
// contribution, with arguments every handler must accept.

func init() {
	register(
		&Check{
			Name:        "contributions.shapes",
			Description: "every declared hook, context provider, status surface and renderer answers with the result shape of its method",
			Requirement: "wire.md §5 hook/run, context/collect, status/collect, tool/render results",
			Tier:        Conditional,
			Covers:      []string{protocol.MethodHookRun, protocol.MethodContextCollect, protocol.MethodStatusCollect, protocol.MethodToolRender},
			Run:         checkContributionShapes,
		},
		&Check{
			Name:        "contributions.fixture_command",
			Description: "the fixture's command fixture_cmd answers {text: its arguments joined by spaces}",
			Requirement: "wire.md §5 command/execute; fixture.md other contributions",
			Tier:        Conditional,
			Fixture:     true,
			Covers:      []string{protocol.MethodCommandExecute},
			Run:         checkFixtureCommand,
		},
		&Check{
			Name:        "lifecycle.notifications",
			Description: "lifecycle notifications are consumed silently (never answered) and the extension keeps serving",
			Requirement: "wire.md §5 lifecycle notifications (0.2+ lifecycle_events)",
			Tier:        Conditional,
			Features:    []protocol.Feature{protocol.FeatureLifecycleEvents},
			Covers:      slices.Clone(protocol.EventMethods),
			Run:         checkLifecycle,
		},
	)
}

// hookPayloads are payloads every hook handler must accept (wire.md §5).
var hookPayloads = map[string]any{
	"before_prompt":      map[string]any{"prompt": "conformance prompt"},
	"after_response":     map[string]any{"response": "conformance response"},
	"before_tool_call":   map[string]any{"name": "conformance_tool", "arguments": map[string]any{}},
	"after_tool_call":    map[string]any{"name": "conformance_tool", "arguments": map[string]any{}, "output": "done", "is_error": false},
	"before_persistence": map[string]any{"name": "conformance_tool", "output": "done"},
	"post_mutation":      map[string]any{"name": "conformance_tool", "resource_ids": []string{}},
}

var placements = []string{"system_prefix", "system_suffix", "prompt_prefix", "prompt_suffix"}

func checkContributionShapes(t *T) error {
	c := t.Ext.Manifest.Contributes
	if len(c.Hooks) == 0 && !c.Context && len(c.UI) == 0 && len(c.ToolRenderers) == 0 {
		return skip("the manifest declares no hooks, context, ui or tool renderers")
	}
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	call := func(method string, params any, v any) error {
		resp, err := s.Call(t.Ctx, t.Timeout(), method, params)
		if err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if resp.Error != nil {
			return fail(method+" to answer", "%s", resp.Error)
		}
		dec := json.NewDecoder(bytes.NewReader(resp.Result))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fail(method+" result of the wire shape", "%s (%v)", excerpt(resp.Result, 200), err)
		}
		return nil
	}
	n := 0
	for _, hook := range r.Hooks {
		var res struct {
			Disposition *struct {
				Action  string  `json:"action"`
				Message *string `json:"message"`
				Prompt  *string `json:"prompt"`
			} `json:"disposition"`
			PersistenceMetadata json.RawMessage `json:"persistence_metadata"`
			PostMutationRescan  json.RawMessage `json:"post_mutation_rescan"`
		}
		if err := call(protocol.MethodHookRun, map[string]any{"hook": hook, "payload": hookPayloads[hook]}, &res); err != nil {
			return fmt.Errorf("hook %s: %w", hook, err)
		}
		if d := res.Disposition; d != nil && !slices.Contains([]string{"continue", "block", "replace"}, d.Action) {
			return fail("disposition.action continue, block or replace", "%q from hook %s", d.Action, hook)
		}
		n++
	}
	if c.Context {
		var res struct {
			Items []struct {
				Label     string `json:"label"`
				Content   string `json:"content"`
				Placement string `json:"placement"`
			} `json:"items"`
		}
		if err := call(protocol.MethodContextCollect, map[string]any{"session_id": "conformance-session", "prompt": "conformance prompt"}, &res); err != nil {
			return err
		}
		if res.Items == nil {
			return fail("context/collect result {items: [...]}", "no items array")
		}
		for _, it := range res.Items {
			if !slices.Contains(placements, it.Placement) {
				return fail("placement one of "+fmt.Sprint(placements), "%q", it.Placement)
			}
		}
		n++
	}
	for _, surface := range r.UI {
		var res struct {
			Surface   string  `json:"surface"`
			Text      *string `json:"text"`
			Priority  *int64  `json:"priority"`
			StyleRole *string `json:"style_role"`
		}
		if err := call(protocol.MethodStatusCollect, map[string]any{"surface": surface}, &res); err != nil {
			return err
		}
		if res.Surface != surface || res.Text == nil || res.Priority == nil || len([]rune(*res.Text)) > 1024 {
			return fail(fmt.Sprintf("status/collect result {surface: %q, text (≤ 1024 chars), priority: int}", surface), "%+v", res)
		}
		n++
	}
	for _, name := range r.ToolRenderers {
		var res struct {
			Segments []struct {
				Text      string  `json:"text"`
				StyleRole *string `json:"style_role"`
			} `json:"segments"`
		}
		result := map[string]any{"content": "rendered by conformance"}
		if r.APIVersion != "0.1" {
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "rendered by conformance"}}}
		}
		if err := call(protocol.MethodToolRender, map[string]any{"name": name, "arguments": map[string]any{}, "result": result}, &res); err != nil {
			return err
		}
		if res.Segments == nil {
			return fail("tool/render result {segments: [...]}", "no segments array")
		}
		n++
	}
	t.Note("%d contribution calls answered", n)
	return nil
}

func checkFixtureCommand(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodCommandExecute, map[string]any{"name": "fixture_cmd", "arguments": []string{"one", "two ✓"}})
	if err != nil {
		return err
	}
	if resp.Error != nil || !jsonEqual(resp.Result, []byte(`{"text":"one two ✓"}`)) {
		return fail(`{"text":"one two ✓"}`, "%s", resp)
	}
	return nil
}

func checkLifecycle(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if !r.HasFeature(protocol.FeatureLifecycleEvents) {
		return skip("lifecycle_events was not negotiated (no on_lifecycle handler)")
	}
	events := []struct {
		method string
		params map[string]any
	}{
		{protocol.MethodSessionStarted, map[string]any{"session_id": "conformance-session"}},
		{protocol.MethodTurnStarted, map[string]any{"session_id": "conformance-session", "turn_id": "t1"}},
		{protocol.MethodToolStarted, map[string]any{"session_id": "conformance-session", "turn_id": "t1", "call_id": "c1", "name": "conformance_tool"}},
		{protocol.MethodToolSettled, map[string]any{"session_id": "conformance-session", "turn_id": "t1", "call_id": "c1", "name": "conformance_tool", "outcome": "completed", "is_error": false}},
		{protocol.MethodTurnSettled, map[string]any{"session_id": "conformance-session", "turn_id": "t1", "outcome": "completed"}},
		{protocol.MethodSessionSettled, map[string]any{"session_id": "conformance-session", "outcome": "completed"}},
	}
	for _, e := range events {
		if err := s.Notify(e.method, e.params); err != nil {
			return err
		}
	}
	// A round trip after the notifications: an answer written to any of them comes
	// first on the single writer, and a crash shows as a transport error.
	resp, err := s.Call(t.Ctx, t.Timeout(), "conformance/no_such_method", map[string]any{})
	if err != nil {
		return fail("the extension to keep serving after six lifecycle notifications", "%v", err)
	}
	if err := expectCode(resp, -32601, "method not found, after the notifications"); err != nil {
		return err
	}
	if n := s.NullIDErrors(); n > 0 {
		return fail("no answer to a notification", "%d error frames with id null", n)
	}
	return nil
}
