package services

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The child-session service is scripted: no model runs. A spawned child is
// "running" until the extension observes it with agent/wait, which settles
// it with the script's reply for its task name (or a stock reply). A child
// scripted with hang = true keeps running until it is interrupted or its
// policy.timeout_ms passes on the router's clock. Records are stored in
// SQLite, scoped to principal plus durable owner (session and instance, not
// generation), so a restarted generation sees and resumes its trees.

// The wire types of this service are the generated protocol ones; storedAgent adds the
// host's bookkeeping to the record it persists.
type (
	agentPolicy    = protocol.AgentPolicy
	modelSelection = protocol.ModelSelection
	agentRecord    = protocol.AgentRecord
)

// storedAgent is what the store keeps: the wire record plus the host's own
// bookkeeping.
type storedAgent struct {
	Record agentRecord `json:"record"`
	Hang   bool        `json:"hang"`
	row    store.AgentRow
}

func (a *storedAgent) active() bool {
	return a.Record.State == protocol.AgentStatePending || a.Record.State == protocol.AgentStateRunning
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

// agentOwner resolves the active parent and insists on a session owner:
// child trees are owned by a session, so an ownerless parent cannot spawn.
func (r *Router) agentOwner(ctx context.Context, c *Caller, parent protocol.RequestID) (context.Context, Owner, func(), error) {
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
	p, err := decodeWorded[protocol.AgentSpawnParams](raw, agentWording)
	if err != nil {
		return nil, err
	}
	ctx, owner, done, err := r.agentOwner(ctx, c, p.ParentRequestID)
	if err != nil {
		return nil, err
	}
	defer done()
	if p.ModelSelection != nil && !r.modelKnown(*p.ModelSelection) {
		return nil, unavailable("model_selection %s/%s is not a model this host offers", deref(p.ModelSelection.Provider), deref(p.ModelSelection.Model))
	}
	inputJSON, _ := json.Marshal(struct {
		TaskName, Profile, Fingerprint, Message string
		Model                                   *modelSelection
		Policy                                  agentPolicy
	}{p.TaskName, deref(p.Profile), deref(p.Fingerprint), p.Message, p.ModelSelection, p.Policy})
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

func spawnResult(a *storedAgent, created bool) protocol.AgentSpawnResult {
	return protocol.AgentSpawnResult{AgentID: a.Record.AgentID, Session: a.Record.Session, State: a.Record.State, Created: created}
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
		if (deref(sel.Provider) == "" || deref(sel.Provider) == m.Provider) && (deref(sel.Model) == "" || deref(sel.Model) == m.Model) {
			return true
		}
	}
	return false
}
