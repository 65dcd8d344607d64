package conformance

import (
	"encoding/json"
	"fmt"
	"strings"
)

// AgentModels is what agent/models answers (before query and limit apply).
var AgentModels = []map[string]any{
	{"provider": "conformance", "model": "fixed-small", "label": "Fixed small"},
	{"provider": "conformance", "model": "fixed-large", "label": "Fixed large"},
	{"provider": "other", "model": "elsewhere"},
}

// agentOp serves the child-session methods after agent/spawn: a target must be an
// agent this owner spawned ("agent-<n>"), anything else is -32602.
func (v *Services) agentOp(method string, p map[string]json.RawMessage) (any, *RPCError) {
	var req struct {
		Target  string `json:"target"`
		Message string `json:"message"`
		Query   string `json:"query"`
		Limit   int    `json:"limit"`
	}
	raw, _ := json.Marshal(p)
	_ = json.Unmarshal(raw, &req)
	v.mu.Lock()
	defer v.mu.Unlock()
	switch method {
	case "agent/models":
		if req.Limit < 1 || req.Limit > 200 {
			return nil, invalid("limit must be 1..200")
		}
		models := []any{}
		for _, m := range AgentModels {
			if strings.Contains(m["model"].(string), req.Query) && len(models) < req.Limit {
				models = append(models, m)
			}
		}
		return map[string]any{"models": models}, nil
	case "agent/list":
		agents := []any{}
		for i, params := range v.agents {
			agents = append(agents, agentRecord(i+1, params))
		}
		return map[string]any{"agents": agents}, nil
	}
	known := false
	for i := range v.agents {
		known = known || req.Target == fmt.Sprintf("agent-%d", i+1)
	}
	if !known {
		return nil, invalid("target %q is not one of this owner's agents", req.Target)
	}
	if method == "agent/interrupt" {
		return map[string]any{"interrupted": true}, nil
	}
	if req.Message == "" {
		return nil, invalid("message must be 1..131072 bytes")
	}
	return map[string]any{"accepted": true}, nil
}

// agentRecord is the AgentRecord of wire.md §6 for the n-th spawn.
func agentRecord(n int, spawn json.RawMessage) map[string]any {
	var p struct {
		TaskName string          `json:"task_name"`
		Key      string          `json:"idempotency_key"`
		Policy   json.RawMessage `json:"policy"`
	}
	_ = json.Unmarshal(spawn, &p)
	return map[string]any{
		"agent_id": fmt.Sprintf("agent-%d", n), "session": fmt.Sprintf("agent-session:%d", n),
		"task_name": p.TaskName, "idempotency_key": p.Key, "state": "running", "policy": p.Policy,
		"created_at_ms": 0, "turns": 0, "timed_out": false,
		"usage": map[string]any{"input_tokens": 0, "output_tokens": 0, "cost_microdollars": 0},
	}
}
