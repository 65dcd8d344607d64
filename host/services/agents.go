package services

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/store"
)

// The child-session service is scripted: no model runs. A spawned child is
// "running" until the extension observes it with agent/wait, which settles
// it with the script's reply for its task name (or a stock reply). A child
// scripted with hang = true keeps running until it is interrupted or its
// policy.timeout_ms passes on the router's clock. Records are stored in
// SQLite, scoped to principal plus durable owner (session and instance, not
// generation), so a restarted generation sees and resumes its trees.

var name48 = regexp.MustCompile(`^[a-z0-9_-]{1,48}$`)

var agentTools = []string{"read", "search", "edit", "write", "bash"}

type agentPolicy struct {
	Tools                 []string `json:"tools"`
	MaxDepth              int64    `json:"max_depth"`
	MaxConcurrentChildren int64    `json:"max_concurrent_children"`
	MaxTurns              int64    `json:"max_turns"`
	MaxTokens             *int64   `json:"max_tokens" octet:"nullable"`
	MaxCostMicrodollars   int64    `json:"max_cost_microdollars"`
	MaxOutputBytes        int64    `json:"max_output_bytes"`
	TimeoutMS             int64    `json:"timeout_ms"`
}

type modelSelection struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
}

type spawnParams struct {
	Parent         json.RawMessage `json:"parent_request_id"`
	TaskName       string          `json:"task_name"`
	Profile        string          `json:"profile,omitempty"`
	Fingerprint    string          `json:"fingerprint,omitempty"`
	Message        string          `json:"message"`
	IdempotencyKey string          `json:"idempotency_key"`
	ModelSelection *modelSelection `json:"model_selection,omitempty"`
	Policy         agentPolicy     `json:"policy"`
}

type agentUsage struct {
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
	CostMicrodollars int64 `json:"cost_microdollars"`
}

// agentRecord is the wire AgentRecord.
type agentRecord struct {
	AgentID        string      `json:"agent_id"`
	Session        string      `json:"session"`
	TaskName       string      `json:"task_name"`
	Profile        string      `json:"profile,omitempty"`
	Fingerprint    string      `json:"fingerprint,omitempty"`
	IdempotencyKey string      `json:"idempotency_key"`
	State          string      `json:"state"`
	Policy         agentPolicy `json:"policy"`
	CreatedAtMS    int64       `json:"created_at_ms"`
	StartedAtMS    *int64      `json:"started_at_ms,omitempty"`
	CompletedAtMS  *int64      `json:"completed_at_ms,omitempty"`
	DeadlineMS     *int64      `json:"deadline_ms,omitempty"`
	Turns          int64       `json:"turns"`
	Usage          agentUsage  `json:"usage"`
	Output         *string     `json:"output,omitempty"`
	TimedOut       bool        `json:"timed_out"`
}

// storedAgent is what the store keeps: the wire record plus the host's own
// bookkeeping.
type storedAgent struct {
	Record agentRecord `json:"record"`
	Hang   bool        `json:"hang"`
	row    store.AgentRow
}

func (a *storedAgent) active() bool {
	return a.Record.State == "pending" || a.Record.State == "running"
}

type agentTarget struct {
	Parent  json.RawMessage `json:"parent_request_id"`
	Target  string          `json:"target"`
	Message string          `json:"message"`
}

type parentOnly struct {
	Parent json.RawMessage `json:"parent_request_id"`
}

type waitParams struct {
	Parent    json.RawMessage `json:"parent_request_id"`
	TimeoutMS int64           `json:"timeout_ms"`
}

type modelsParams struct {
	Parent json.RawMessage `json:"parent_request_id"`
	Query  string          `json:"query,omitempty"`
	Limit  int64           `json:"limit"`
}

type interruptParams struct {
	Parent json.RawMessage `json:"parent_request_id"`
	Target string          `json:"target"`
}

// agentWake is closed and replaced whenever a child changes state, waking
// pending agent/wait calls.
type agentWake struct {
	mu sync.Mutex
	ch chan struct{}
}

func (w *agentWake) wait() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch == nil {
		w.ch = make(chan struct{})
	}
	return w.ch
}

func (w *agentWake) notify() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ch != nil {
		close(w.ch)
		w.ch = nil
	}
}

func validateSpawn(p *spawnParams) error {
	if !name48.MatchString(p.TaskName) {
		return invalidParams("task_name", "%q must match %s", p.TaskName, name48)
	}
	if p.Profile != "" && !name48.MatchString(p.Profile) {
		return invalidParams("profile", "%q must match %s", p.Profile, name48)
	}
	if p.Fingerprint != "" && !sha256Hex.MatchString(p.Fingerprint) {
		return invalidParams("fingerprint", "must be 64 lowercase hex digits")
	}
	if err := checkAgentMessage("message", p.Message); err != nil {
		return err
	}
	if len(p.IdempotencyKey) < 1 || len(p.IdempotencyKey) > 256 {
		return invalidParams("idempotency_key", "must be 1..256 bytes")
	}
	pol := p.Policy
	if len(pol.Tools) < 1 || len(pol.Tools) > len(agentTools) {
		return invalidParams("policy.tools", "must list 1..5 of %s", strings.Join(agentTools, ", "))
	}
	seen := map[string]bool{}
	for i, t := range pol.Tools {
		if !slices.Contains(agentTools, t) || seen[t] {
			return invalidParams("policy.tools["+itoa(i)+"]", "%q is unknown or repeated; tools are a subset of %s", t, strings.Join(agentTools, ", "))
		}
		seen[t] = true
	}
	switch {
	case pol.MaxDepth != 1:
		return invalidParams("policy.max_depth", "must be 1 (children cannot spawn children)")
	case pol.MaxConcurrentChildren < 1 || pol.MaxConcurrentChildren > agentMaxActive:
		return invalidParams("policy.max_concurrent_children", "must be 1..%d", agentMaxActive)
	case pol.MaxTurns < 1 || pol.MaxTurns > maxSafeInteger:
		return invalidParams("policy.max_turns", "must be ≥ 1")
	case pol.MaxTokens != nil && (*pol.MaxTokens < agentMaxTokensMin || *pol.MaxTokens > agentMaxTokensMax):
		return invalidParams("policy.max_tokens", "must be null or %d..%d", agentMaxTokensMin, agentMaxTokensMax)
	case pol.MaxCostMicrodollars < 0 || pol.MaxCostMicrodollars > maxSafeInteger:
		return invalidParams("policy.max_cost_microdollars", "must be ≥ 0")
	case pol.MaxOutputBytes < 1 || pol.MaxOutputBytes > maxSafeInteger:
		return invalidParams("policy.max_output_bytes", "must be ≥ 1")
	case pol.TimeoutMS < 1 || pol.TimeoutMS > maxSafeInteger:
		return invalidParams("policy.timeout_ms", "must be ≥ 1")
	}
	return nil
}

func checkAgentMessage(path, m string) error {
	if m == "" || len(m) > agentMessageMaxBytes {
		return invalidParams(path, "must be 1..%d bytes", agentMessageMaxBytes)
	}
	return nil
}

// agentOwner resolves the active parent and insists on a session owner:
// child trees are owned by a session, so an ownerless parent cannot spawn.
func (r *Router) agentOwner(ctx context.Context, c *Caller, parent json.RawMessage) (context.Context, Owner, func(), error) {
	ctx, owner, _, done, err := r.withParent(ctx, c, parent)
	if err != nil {
		return nil, Owner{}, nil, err
	}
	if owner.SessionID == "" {
		done()
		return nil, Owner{}, nil, unavailable("the parent request has no session owner; child sessions need one")
	}
	return ctx, owner, done, nil
}

func (r *Router) loadAgents(ctx context.Context, c *Caller, owner Owner) ([]*storedAgent, error) {
	rows, err := r.store.Agents(ctx, c.Principal, owner.SessionID, c.InstanceID)
	if err != nil {
		return nil, unavailable("child-session records: %v", err)
	}
	out := make([]*storedAgent, 0, len(rows))
	for _, row := range rows {
		a := &storedAgent{row: row}
		if err := json.Unmarshal(row.Record, a); err != nil {
			return nil, unavailable("child-session record %s is unreadable: %v", row.AgentID, err)
		}
		out = append(out, a)
	}
	return out, nil
}

func (r *Router) saveAgent(ctx context.Context, a *storedAgent) error {
	b, err := json.Marshal(a)
	if err != nil {
		return internal("encode child record: %v", err)
	}
	a.row.Record = b
	if err := r.store.PutAgent(ctx, a.row); err != nil {
		return unavailable("persist child record: %v", err)
	}
	r.agentWake.notify()
	return nil
}

func (r *Router) agentSpawn(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p spawnParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := validateSpawn(&p); err != nil {
		return nil, err
	}
	ctx, owner, done, err := r.agentOwner(ctx, c, p.Parent)
	if err != nil {
		return nil, err
	}
	defer done()
	if p.ModelSelection != nil && !r.modelKnown(*p.ModelSelection) {
		return nil, unavailable("model_selection %s/%s is not a model this host offers", p.ModelSelection.Provider, p.ModelSelection.Model)
	}
	inputJSON, _ := json.Marshal(struct {
		TaskName, Profile, Fingerprint, Message string
		Model                                   *modelSelection
		Policy                                  agentPolicy
	}{p.TaskName, p.Profile, p.Fingerprint, p.Message, p.ModelSelection, p.Policy})
	canon, err := store.Canonical(inputJSON)
	if err != nil {
		return nil, internal("canonical spawn input: %v", err)
	}
	digest := store.Digest(canon)

	r.agentMu.Lock()
	defer r.agentMu.Unlock()
	agents, err := r.loadAgents(ctx, c, owner)
	if err != nil {
		return nil, err
	}
	active := 0
	var maxSeq int64
	for _, a := range agents {
		if a.row.IdempotencyKey == p.IdempotencyKey {
			if a.row.InputDigest != digest {
				return nil, unavailable("idempotency_key %q was already used with different input", p.IdempotencyKey)
			}
			return spawnResult(a, false), nil
		}
		if a.active() {
			active++
		}
		maxSeq = max(maxSeq, a.row.Seq)
	}
	if active >= agentMaxActive || int64(active) >= p.Policy.MaxConcurrentChildren {
		return nil, unavailable("%d children are active; the limit is %d", active, min(int64(agentMaxActive), p.Policy.MaxConcurrentChildren))
	}
	// Keep at most agentMaxRetained records: prune the oldest settled ones.
	for i := 0; len(agents) >= agentMaxRetained && i < len(agents); {
		if agents[i].active() {
			i++
			continue
		}
		if err := r.store.DeleteAgent(ctx, agents[i].row.AgentID); err != nil {
			return nil, unavailable("prune child records: %v", err)
		}
		agents = append(agents[:i], agents[i+1:]...)
	}
	if len(agents) >= agentMaxRetained {
		return nil, unavailable("%d child records are retained and none can be pruned", len(agents))
	}
	idHex, err := r.randomHex(8)
	if err != nil {
		return nil, internal("agent id: %v", err)
	}
	sessHex, err := r.randomHex(16)
	if err != nil {
		return nil, internal("agent session: %v", err)
	}
	now := r.now().UnixMilli()
	deadline := now + p.Policy.TimeoutMS
	reply := r.agentReply(p.TaskName)
	a := &storedAgent{
		Record: agentRecord{AgentID: "agent_" + idHex, Session: "agent-session:" + sessHex, TaskName: p.TaskName, Profile: p.Profile,
			Fingerprint: p.Fingerprint, IdempotencyKey: p.IdempotencyKey, State: "running", Policy: p.Policy,
			CreatedAtMS: now, StartedAtMS: &now, DeadlineMS: &deadline},
		Hang: reply.Hang,
		row: store.AgentRow{AgentID: "agent_" + idHex, Principal: c.Principal, SessionID: owner.SessionID, InstanceID: c.InstanceID,
			IdempotencyKey: p.IdempotencyKey, InputDigest: digest, Seq: maxSeq + 1},
	}
	if err := r.saveAgent(ctx, a); err != nil {
		return nil, err
	}
	return spawnResult(a, true), nil
}

func spawnResult(a *storedAgent, created bool) map[string]any {
	return map[string]any{"agent_id": a.Record.AgentID, "session": a.Record.Session, "state": a.Record.State, "created": created}
}

// agentReply is the script's reply for a task, or the stock one.
func (r *Router) agentReply(task string) script.Agent {
	if r.cfg.Script != nil {
		for _, a := range r.cfg.Script.Agents {
			if a.TaskName == task || a.TaskName == "*" {
				return a
			}
		}
	}
	return script.Agent{TaskName: task, Output: "scripted reply for " + task, State: "settled", Turns: 1}
}

func (r *Router) models() []script.Model {
	if r.cfg.Script != nil && len(r.cfg.Script.Models) > 0 {
		return r.cfg.Script.Models
	}
	return []script.Model{{Provider: "octet", Model: "scripted", Label: "Scripted replies (no model)"}}
}

func (r *Router) modelKnown(sel modelSelection) bool {
	for _, m := range r.models() {
		if (sel.Provider == "" || sel.Provider == m.Provider) && (sel.Model == "" || sel.Model == m.Model) {
			return true
		}
	}
	return false
}
