package services

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Steering and stopping children: agent/message, agent/follow_up and
// agent/interrupt. Targets must belong to the caller's principal and owner.

func (r *Router) findAgent(agents []*storedAgent, target string) (*storedAgent, error) {
	for _, a := range agents {
		if a.Record.AgentID == target || a.Record.Session == target {
			return a, nil
		}
	}
	// Unknown and foreign targets read the same.
	return nil, unavailable("target %q is not a child session of this extension and owner", target)
}

var messageParams = agentParams[protocol.AgentMessageParams]{
	wording: agentWording,
	parent:  func(p *protocol.AgentMessageParams) protocol.RequestID { return p.ParentRequestID },
	check:   func(p *protocol.AgentMessageParams) error { return checkTarget(p.Target) },
}

func (r *Router) agentMessage(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, messageParams, func(ctx context.Context, owner Owner, p *protocol.AgentMessageParams) (any, error) {
		return r.steer(ctx, c, owner, p, false)
	})
}

func (r *Router) agentFollowUp(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, messageParams, func(ctx context.Context, owner Owner, p *protocol.AgentMessageParams) (any, error) {
		return r.steer(ctx, c, owner, p, true)
	})
}

// steer is agent/message (steer a running child) and agent/follow_up
// (resume a settled child with a new turn).
func (r *Router) steer(ctx context.Context, c *Caller, owner Owner, p *protocol.AgentMessageParams, followUp bool) (any, error) {
	r.agentMu.Lock()
	defer r.agentMu.Unlock()
	agents, err := r.loadAgents(ctx, c, owner)
	if err != nil {
		return nil, err
	}
	a, err := r.findAgent(agents, p.Target)
	if err != nil {
		return nil, err
	}
	if !followUp {
		if !a.active() {
			return nil, unavailable("target %s is %s; agent/message steers running children (use agent/follow_up to resume)", a.Record.AgentID, a.Record.State)
		}
		return protocol.AgentMessageResult{Accepted: true}, nil
	}
	switch a.Record.State {
	case "settled", "failed", "interrupted":
	default:
		return nil, unavailable("target %s is %s; only settled, failed or interrupted children can be followed up", a.Record.AgentID, a.Record.State)
	}
	active := 0
	for _, o := range agents {
		if o.active() {
			active++
		}
	}
	if active >= agentMaxActive {
		return nil, unavailable("%d children are active; the limit is %d", active, agentMaxActive)
	}
	now := r.now().UnixMilli()
	deadline := now + a.Record.Policy.TimeoutMS
	a.Record.State, a.Record.CompletedAtMS, a.Record.Output, a.Record.DeadlineMS, a.Record.TimedOut = "running", nil, nil, &deadline, false
	if err := r.saveAgent(ctx, a); err != nil {
		return nil, err
	}
	return protocol.AgentMessageResult{Accepted: true}, nil
}

var interruptParams = agentParams[protocol.AgentInterruptParams]{
	parent: func(p *protocol.AgentInterruptParams) protocol.RequestID { return p.ParentRequestID },
	check:  func(p *protocol.AgentInterruptParams) error { return checkTarget(p.Target) },
}

func (r *Router) agentInterrupt(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, interruptParams, func(ctx context.Context, owner Owner, p *protocol.AgentInterruptParams) (any, error) {
		return r.interrupt(ctx, c, owner, p)
	})
}

func (r *Router) interrupt(ctx context.Context, c *Caller, owner Owner, p *protocol.AgentInterruptParams) (any, error) {
	r.agentMu.Lock()
	defer r.agentMu.Unlock()
	agents, err := r.loadAgents(ctx, c, owner)
	if err != nil {
		return nil, err
	}
	a, err := r.findAgent(agents, p.Target)
	if err != nil {
		return nil, err
	}
	if !a.active() {
		return protocol.AgentInterruptResult{Interrupted: false}, nil
	}
	now := r.now().UnixMilli()
	a.Record.State, a.Record.CompletedAtMS = "interrupted", &now
	if err := r.saveAgent(ctx, a); err != nil {
		return nil, err
	}
	return protocol.AgentInterruptResult{Interrupted: true}, nil
}

// StopChildren interrupts every active child of c's principal and instance
// owned by sessionID ("" = every session): the core calls it when an
// extension is shut down explicitly (disable, host exit) or a root session
// settles. A supervised restart does not call it: trees survive
// generations so the new process can resume them. It reports how many
// children it stopped.
func (r *Router) StopChildren(ctx context.Context, c *Caller, sessionID string) (int, error) {
	r.agentMu.Lock()
	defer r.agentMu.Unlock()
	rows, err := r.store.AgentsOfInstance(ctx, c.Principal, c.InstanceID)
	if err != nil {
		return 0, err
	}
	now := r.now().UnixMilli()
	stopped := 0
	for _, row := range rows {
		if sessionID != "" && row.SessionID != sessionID {
			continue
		}
		a := &storedAgent{row: row}
		if err := json.Unmarshal(row.Record, a); err != nil {
			return stopped, fmt.Errorf("child-session record %s is unreadable: %w", row.AgentID, err)
		}
		if !a.active() {
			continue
		}
		a.Record.State, a.Record.CompletedAtMS = "interrupted", &now
		if err := r.saveAgent(ctx, a); err != nil {
			return stopped, err
		}
		stopped++
	}
	return stopped, nil
}

// checkTarget is the host rule that a target names a child: the schema types it as any
// string, the empty one names nothing.
func checkTarget(target string) error {
	if target == "" {
		return invalidParams("target", "must be an agent_id or agent-session reference")
	}
	return nil
}
