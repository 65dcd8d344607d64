package octet

import (
	"context"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// AgentSpawn describes a bounded child session (wire.md §6 agent/spawn). MaxTokens
// nil inherits the parent's ceiling; otherwise 1000..64000.
type AgentSpawn struct {
	TaskName              string
	Profile               string
	Fingerprint           string
	Message               string
	IdempotencyKey        string
	ModelSelection        *protocol.ModelSelection
	Tools                 []string // read, search, edit, write, bash
	MaxDepth              int64
	MaxConcurrentChildren int64
	MaxTurns              int64
	MaxTokens             *int64
	MaxCostMicrodollars   int64
	MaxOutputBytes        int64
	TimeoutMS             int64
}

var agentTools = []string{"read", "search", "edit", "write", "bash"}

func checkAgentMessage(message string) error {
	if len(message) == 0 || len(message) > protocol.AgentMessageMaxBytes {
		return localError("agent message of %d bytes is outside 1..%d", len(message), protocol.AgentMessageMaxBytes)
	}
	return nil
}

// check applies the bounds the host would refuse, locally.
func (a AgentSpawn) check() error {
	if !name48.MatchString(a.TaskName) {
		return localError("task_name %q must match %s", a.TaskName, name48)
	}
	if a.Profile != "" && !name48.MatchString(a.Profile) {
		return localError("profile %q must match %s", a.Profile, name48)
	}
	if a.Fingerprint != "" && !sha256Pattern.MatchString(a.Fingerprint) {
		return localError("fingerprint must be 64 lowercase hex digits")
	}
	if err := checkAgentMessage(a.Message); err != nil {
		return err
	}
	if n := len(a.IdempotencyKey); n == 0 || n > 256 {
		return localError("idempotency_key of %d bytes is outside 1..256", n)
	}
	if n := len(a.Tools); n == 0 || n > len(agentTools) {
		return localError("policy.tools needs 1..5 of %v", agentTools)
	}
	seen := map[string]bool{}
	for _, t := range a.Tools {
		if !slices.Contains(agentTools, t) || seen[t] {
			return localError("policy.tools entry %q is unknown or repeated (allowed: %v)", t, agentTools)
		}
		seen[t] = true
	}
	switch {
	case a.MaxDepth != protocol.AgentMaxDepth:
		return localError("policy.max_depth must be %d", protocol.AgentMaxDepth)
	case a.MaxConcurrentChildren < 1 || a.MaxConcurrentChildren > protocol.AgentMaxActive:
		return localError("policy.max_concurrent_children %d is outside 1..%d", a.MaxConcurrentChildren, protocol.AgentMaxActive)
	case a.MaxTurns < 1:
		return localError("policy.max_turns must be ≥ 1")
	case a.MaxTokens != nil && (*a.MaxTokens < protocol.AgentMaxTokensMin || *a.MaxTokens > protocol.AgentMaxTokensMax):
		return localError("policy.max_tokens %d is outside %d..%d (nil inherits)", *a.MaxTokens, protocol.AgentMaxTokensMin, protocol.AgentMaxTokensMax)
	case a.MaxCostMicrodollars < 0:
		return localError("policy.max_cost_microdollars must be ≥ 0")
	case a.MaxOutputBytes < 1:
		return localError("policy.max_output_bytes must be ≥ 1")
	case a.TimeoutMS < 1:
		return localError("policy.timeout_ms must be ≥ 1")
	}
	return nil
}

// SpawnAgent starts (or, with the same idempotency key, returns) a child session.
// Needs negotiated agent_sessions and an active parent request.
func (e *Extension) SpawnAgent(ctx context.Context, a AgentSpawn) (protocol.AgentSpawnResult, error) {
	var res protocol.AgentSpawnResult
	if err := a.check(); err != nil {
		return res, err
	}
	st, err := e.agentParent(ctx, "SpawnAgent")
	if err != nil {
		return res, err
	}
	maxTokens := protocol.Nullable[int64]{}
	if a.MaxTokens != nil {
		maxTokens = protocol.NullableOf(*a.MaxTokens)
	}
	p := protocol.AgentSpawnParams{
		ParentRequestID: wireID(st.id), TaskName: a.TaskName, Message: a.Message,
		IdempotencyKey: a.IdempotencyKey, ModelSelection: a.ModelSelection,
		Policy: protocol.AgentPolicy{
			Tools: a.Tools, MaxDepth: a.MaxDepth, MaxConcurrentChildren: a.MaxConcurrentChildren,
			MaxTurns: a.MaxTurns, MaxTokens: maxTokens, MaxCostMicrodollars: a.MaxCostMicrodollars,
			MaxOutputBytes: a.MaxOutputBytes, TimeoutMS: a.TimeoutMS,
		},
	}
	if a.Profile != "" {
		p.Profile = &a.Profile
	}
	if a.Fingerprint != "" {
		p.Fingerprint = &a.Fingerprint
	}
	err = e.ask(ctx, protocol.MethodAgentSpawn, p, &res)
	return res, err
}

func (e *Extension) agentParent(ctx context.Context, what string) (*callState, error) {
	if _, err := e.need(what, protocol.FeatureAgentSessions); err != nil {
		return nil, err
	}
	return e.parent(ctx, what)
}

// SendAgentMessage steers a running child.
func (e *Extension) SendAgentMessage(ctx context.Context, target, message string) (bool, error) {
	return e.agentText(ctx, "SendAgentMessage", protocol.MethodAgentMessage, target, message)
}

// FollowUpAgent queues a follow-up for a child.
func (e *Extension) FollowUpAgent(ctx context.Context, target, message string) (bool, error) {
	return e.agentText(ctx, "FollowUpAgent", protocol.MethodAgentFollowUp, target, message)
}

func (e *Extension) agentText(ctx context.Context, what, method, target, message string) (bool, error) {
	if err := checkAgentMessage(message); err != nil {
		return false, err
	}
	if target == "" {
		return false, localError("%s: target is empty", what)
	}
	st, err := e.agentParent(ctx, what)
	if err != nil {
		return false, err
	}
	var res struct {
		Accepted bool `json:"accepted"`
	}
	err = e.ask(ctx, method, map[string]any{"parent_request_id": st.id, "target": target, "message": message}, &res)
	return res.Accepted, err
}

// ListAgentModels lists models a child may use (limit 1..200; 0 means 50).
func (e *Extension) ListAgentModels(ctx context.Context, query string, limit int) (protocol.AgentModelsResult, error) {
	var res protocol.AgentModelsResult
	if limit == 0 {
		limit = 50
	}
	if limit < 1 || limit > 200 {
		return res, localError("agent models limit %d is outside 1..200", limit)
	}
	st, err := e.agentParent(ctx, "ListAgentModels")
	if err != nil {
		return res, err
	}
	params := map[string]any{"parent_request_id": st.id, "limit": limit}
	if query != "" {
		params["query"] = query
	}
	err = e.ask(ctx, protocol.MethodAgentModels, params, &res)
	return res, err
}

// ListAgents lists the children this owner holds.
func (e *Extension) ListAgents(ctx context.Context) (protocol.AgentListResult, error) {
	var res protocol.AgentListResult
	st, err := e.agentParent(ctx, "ListAgents")
	if err != nil {
		return res, err
	}
	err = e.ask(ctx, protocol.MethodAgentList, map[string]any{"parent_request_id": st.id}, &res)
	return res, err
}

// WaitAgents waits for children to settle (timeoutMS 1..60000; 0 means 30000).
func (e *Extension) WaitAgents(ctx context.Context, timeoutMS int64) (protocol.AgentWaitResult, error) {
	var res protocol.AgentWaitResult
	if timeoutMS == 0 {
		timeoutMS = protocol.AgentWaitDefaultMS
	}
	if timeoutMS < protocol.AgentWaitMinMS || timeoutMS > protocol.AgentWaitMaxMS {
		return res, localError("agent wait timeout_ms %d is outside %d..%d", timeoutMS, protocol.AgentWaitMinMS, protocol.AgentWaitMaxMS)
	}
	st, err := e.agentParent(ctx, "WaitAgents")
	if err != nil {
		return res, err
	}
	err = e.ask(ctx, protocol.MethodAgentWait, map[string]any{"parent_request_id": st.id, "timeout_ms": timeoutMS}, &res)
	return res, err
}

// InterruptAgent interrupts a child.
func (e *Extension) InterruptAgent(ctx context.Context, target string) (bool, error) {
	if target == "" {
		return false, localError("InterruptAgent: target is empty")
	}
	st, err := e.agentParent(ctx, "InterruptAgent")
	if err != nil {
		return false, err
	}
	var res struct {
		Interrupted bool `json:"interrupted"`
	}
	err = e.ask(ctx, protocol.MethodAgentInterrupt, map[string]any{"parent_request_id": st.id, "target": target}, &res)
	return res.Interrupted, err
}
