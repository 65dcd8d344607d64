package conformance

import (
	"encoding/json"
	"fmt"
	"slices"
)

// The child-session steering check: every agent/* method after agent/spawn.

func init() {
	register(&Check{
		Name:        "agents.steering",
		Description: "agent/message, agent/follow_up, agent/models, agent/list and agent/interrupt reach the host with the handler's arguments under its parent and their answers come back; each method's -32602 and -32002 are carried verbatim",
		Requirement: "wire.md §6 agent/message, agent/follow_up, agent/models, agent/list, agent/interrupt",
		Tier:        Conditional,
		Tools:       []string{"spawn_child", "agent_op"},
		Features:    []string{"agent_sessions"},
		Covers: []string{"agent/message", "agent/follow_up", "agent/models", "agent/list", "agent/interrupt",
			"agent/message error -32602", "agent/message error -32002", "agent/follow_up error -32602", "agent/follow_up error -32002",
			"agent/models error -32602", "agent/models error -32002", "agent/list error -32602", "agent/list error -32002",
			"agent/interrupt error -32602", "agent/interrupt error -32002", "agent/wait error -32602"},
		Run: checkAgentSteering,
	})
}

func checkAgentSteering(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, "agent_sessions"); err != nil {
		return err
	}
	resp, err := t.toolCall(s, "spawn_child", map[string]any{"task_name": "steered", "message": "hello", "key": "k-steer"})
	if err != nil {
		return err
	}
	if resp.Error != nil {
		return fail("spawn_child to spawn agent-1", "%s", resp.Error)
	}
	op := func(args map[string]any, want string) error {
		resp, err := t.toolCall(s, "agent_op", args)
		if err != nil {
			return err
		}
		var got json.RawMessage
		if err := structured(resp, &got); err != nil {
			return fmt.Errorf("agent_op %v: %w", args, err)
		}
		if !jsonEqual(got, []byte(want)) {
			return fail(fmt.Sprintf("agent_op %v: structured_content %s", args, want), "%s", excerpt(got, 300))
		}
		return nil
	}
	if err := op(map[string]any{"op": "message", "target": "agent-1", "message": "steer ✓"}, `{"accepted":true}`); err != nil {
		return err
	}
	if err := op(map[string]any{"op": "follow_up", "target": "agent-1", "message": "more"}, `{"accepted":true}`); err != nil {
		return err
	}
	if err := op(map[string]any{"op": "models", "query": "fixed", "limit": 1}, mustJSONString(map[string]any{"models": AgentModels[:1]})); err != nil {
		return err
	}
	if err := op(map[string]any{"op": "interrupt", "target": "agent-1"}, `{"interrupted":true}`); err != nil {
		return err
	}
	resp, err = t.toolCall(s, "agent_op", map[string]any{"op": "list"})
	if err != nil {
		return err
	}
	var list struct {
		Agents []struct {
			AgentID  string `json:"agent_id"`
			TaskName string `json:"task_name"`
		} `json:"agents"`
	}
	if err := structured(resp, &list); err != nil {
		return err
	}
	if len(list.Agents) != 1 || list.Agents[0].AgentID != "agent-1" || list.Agents[0].TaskName != "steered" {
		return fail(`agents [{agent_id "agent-1", task_name "steered"}]`, "%+v", list.Agents)
	}
	// What the host received: the handler's arguments, nothing lost.
	for method, want := range map[string]string{
		"agent/message":   `{"target":"agent-1","message":"steer ✓"}`,
		"agent/follow_up": `{"target":"agent-1","message":"more"}`,
		"agent/models":    `{"query":"fixed","limit":1}`,
		"agent/interrupt": `{"target":"agent-1"}`,
		"agent/list":      `{}`,
	} {
		calls := s.services.Calls(method)
		if len(calls) != 1 {
			return fail("one "+method, "%d", len(calls))
		}
		var got map[string]json.RawMessage
		_ = json.Unmarshal(calls[0].Params, &got)
		delete(got, "parent_request_id") // checked by the services: a request the extension serves
		if b, _ := json.Marshal(got); !jsonEqual(b, []byte(want)) {
			return fail(method+" params "+want+" (besides parent_request_id)", "%s", excerpt(calls[0].Params, 200))
		}
	}
	// An unknown target is the host's -32602, then each method's refusals, verbatim.
	resp, err = t.toolCall(s, "agent_op", map[string]any{"op": "message", "target": "agent-99", "message": "x"})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32602, "agent/message to a target this owner does not hold"); err != nil {
		return err
	}
	ops := map[string]map[string]any{
		"agent/message":   {"op": "message", "target": "agent-1", "message": "x"},
		"agent/follow_up": {"op": "follow_up", "target": "agent-1", "message": "x"},
		"agent/models":    {"op": "models", "query": "", "limit": 5},
		"agent/list":      {"op": "list"},
		"agent/interrupt": {"op": "interrupt", "target": "agent-1"},
		"agent/wait":      {"op": "wait"},
	}
	methods := make([]string, 0, len(ops))
	for m := range ops {
		methods = append(methods, m)
	}
	slices.Sort(methods)
	for _, method := range methods {
		for _, code := range []int64{-32602, -32002} {
			want := refusal(code, fmt.Sprintf("conformance %s refusal %d", method, code))
			s.services.Refuse(method, want)
			resp, err := t.toolCall(s, "agent_op", ops[method])
			if err != nil {
				return err
			}
			if err := expectVerbatim(resp, want, method+" refused"); err != nil {
				return err
			}
		}
	}
	return nil
}

func mustJSONString(v any) string { return string(mustJSON(v)) }
