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

// agentParams is what withAgent needs of an agent/* method's params: the parent request
// that owns the children it acts on. Every such params type has the field; the accessor
// is how a generic function reaches it.
type agentParams[P any] struct {
	wording wording                     // the host's wording for schema faults (nil: the default)
	parent  func(*P) protocol.RequestID // the parent_request_id field
	check   func(*P) error              // host rules checked before the parent is resolved (nil: none)
}

// withAgent is the preamble every agent/* handler shares: decode and validate the
// params, apply the host's own rules, resolve the parent request to its session owner
// and hold it while body runs (a parent that settles cancels ctx). The order matters
// for which fault a caller sees first: schema, then host rules, then the parent.
func withAgent[P any, PP interface {
	*P
	protocol.Validated
}](r *Router, ctx context.Context, c *Caller, raw json.RawMessage, a agentParams[P], body func(ctx context.Context, owner Owner, p *P) (any, error)) (any, error) {
	p, err := decodeWorded[P, PP](raw, a.wording)
	if err != nil {
		return nil, err
	}
	if a.check != nil {
		if err := a.check(&p); err != nil {
			return nil, err
		}
	}
	ctx, owner, done, err := r.agentOwner(ctx, c, a.parent(&p))
	if err != nil {
		return nil, err
	}
	defer done()
	return body(ctx, owner, &p)
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

var spawnParams = agentParams[protocol.AgentSpawnParams]{
	wording: agentWording,
	parent:  func(p *protocol.AgentSpawnParams) protocol.RequestID { return p.ParentRequestID },
}

func (r *Router) agentSpawn(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, spawnParams, func(ctx context.Context, owner Owner, p *protocol.AgentSpawnParams) (any, error) {
		return r.spawn(ctx, c, owner, p)
	})
}

// spawn starts a child (or returns the one its idempotency key already started).
func (r *Router) spawn(ctx context.Context, c *Caller, owner Owner, p *protocol.AgentSpawnParams) (any, error) {
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
