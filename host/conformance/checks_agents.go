package conformance

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The child-session steering check: every agent/* method after agent/spawn.

func init() {
	register(&Check{
		Name:        "agents.steering",
		Description: "agent/message, agent/follow_up, agent/models, agent/list and agent/interrupt reach the host with the handler's arguments under its parent and their answers come back; each method's -32602 and -32002 are carried verbatim",
		Requirement: "wire.md §6 agent/message, agent/follow_up, agent/models, agent/list, agent/interrupt",
		Tier:        Conditional,
		Tools:       []string{"spawn_child", "agent_op"},
		Features:    []protocol.Feature{protocol.FeatureAgentSessions},
		Covers: []string{
			protocol.MethodAgentMessage,
			protocol.MethodAgentFollowUp,
			protocol.MethodAgentModels,
			protocol.MethodAgentList,
			protocol.MethodAgentInterrupt,
			reqError(protocol.MethodAgentMessage, protocol.CodeInvalidParams),
			reqError(protocol.MethodAgentMessage, protocol.CodeServiceUnavailable),
			reqError(protocol.MethodAgentFollowUp, protocol.CodeInvalidParams),
			reqError(protocol.MethodAgentFollowUp, protocol.CodeServiceUnavailable),
			reqError(protocol.MethodAgentModels, protocol.CodeInvalidParams),
			reqError(protocol.MethodAgentModels, protocol.CodeServiceUnavailable),
			reqError(protocol.MethodAgentList, protocol.CodeInvalidParams),
			reqError(protocol.MethodAgentList, protocol.CodeServiceUnavailable),
			reqError(protocol.MethodAgentInterrupt, protocol.CodeInvalidParams),
			reqError(protocol.MethodAgentInterrupt, protocol.CodeServiceUnavailable),
			reqError(protocol.MethodAgentWait, protocol.CodeInvalidParams),
		},
		Run: checkAgentSteering,
	})
}

func checkAgentSteering(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	if err := needFeature(r, protocol.FeatureAgentSessions); err != nil {
		return err
	}
	// A child that keeps running until interrupted (the script's HangingTask): agent/message
	// steers running children, agent/follow_up resumes interrupted ones.
	resp, err := t.toolCall(s, "spawn_child", map[string]any{"task_name": HangingTask, "message": "hello", "key": "k-steer"})
	if err != nil {
		return err
	}
	var child struct {
		AgentID string `json:"agent_id"`
	}
	if err := structured(resp, &child); err != nil || child.AgentID == "" {
		return fail("spawn_child to spawn a child", "%s", resp)
	}
	id := child.AgentID
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
	if err := op(map[string]any{"op": "message", "target": id, "message": "steer ✓"}, `{"accepted":true}`); err != nil {
		return err
	}
	if err := op(map[string]any{"op": "interrupt", "target": id}, `{"interrupted":true}`); err != nil {
		return err
	}
	if err := op(map[string]any{"op": "follow_up", "target": id, "message": "more"}, `{"accepted":true}`); err != nil {
		return err
	}
	if err := op(map[string]any{"op": "models", "query": "fixed", "limit": 1}, mustJSONString(map[string]any{"models": AgentModels[:1]})); err != nil {
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
	if len(list.Agents) != 1 || list.Agents[0].AgentID != id || list.Agents[0].TaskName != HangingTask {
		return fail(fmt.Sprintf("agents [{agent_id %q, task_name %q}]", id, HangingTask), "%+v", list.Agents)
	}
	// What the host received: the handler's arguments, nothing lost.
	for method, want := range map[string]string{
		protocol.MethodAgentMessage:   fmt.Sprintf(`{"target":%q,"message":"steer ✓"}`, id),
		protocol.MethodAgentFollowUp:  fmt.Sprintf(`{"target":%q,"message":"more"}`, id),
		protocol.MethodAgentModels:    `{"query":"fixed","limit":1}`,
		protocol.MethodAgentInterrupt: fmt.Sprintf(`{"target":%q}`, id),
		protocol.MethodAgentList:      `{}`,
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
	// A target this owner does not hold is the host's -32002; then each method's
	// refusals of both codes. All carried verbatim.
	resp, err = t.toolCall(s, "agent_op", map[string]any{"op": "interrupt", "target": "agent-not-spawned"})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32002, "agent/interrupt of a target this owner does not hold"); err != nil {
		return err
	}
	if err := expectCarried(resp, s, protocol.MethodAgentInterrupt); err != nil {
		return err
	}
	ops := map[string]map[string]any{
		protocol.MethodAgentMessage:   {"op": "message", "target": id, "message": "x"},
		protocol.MethodAgentFollowUp:  {"op": "follow_up", "target": id, "message": "x"},
		protocol.MethodAgentModels:    {"op": "models", "query": "", "limit": 5},
		protocol.MethodAgentList:      {"op": "list"},
		protocol.MethodAgentInterrupt: {"op": "interrupt", "target": id},
		protocol.MethodAgentWait:      {"op": "wait"},
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
