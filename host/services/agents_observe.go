package services

import (
	"context"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Observing children: agent/list, agent/wait and agent/models, and the
// scripted "model" that settles a child when it is observed.

// advance settles children the extension is now observing and applies
// deadlines; it reports which records changed.
func (r *Router) advance(a *storedAgent, now int64) bool {
	if !a.active() {
		return false
	}
	rec := &a.Record
	if rec.DeadlineMS != nil && now >= *rec.DeadlineMS {
		rec.State, rec.TimedOut, rec.CompletedAtMS = "timed_out", true, &now
		return true
	}
	if a.Hang {
		return false
	}
	reply := r.agentReply(rec.TaskName)
	state := reply.State
	if state == "" {
		state = "settled"
	}
	turns := reply.Turns
	if turns < 1 {
		turns = 1
	}
	rec.Turns += min(turns, rec.Policy.MaxTurns)
	rec.Usage.InputTokens += reply.InputTokens
	rec.Usage.OutputTokens += reply.OutputTokens
	rec.Usage.CostMicrodollars += min(reply.CostMicrodollars, rec.Policy.MaxCostMicrodollars)
	out := truncateUTF8(reply.Output, int(min(rec.Policy.MaxOutputBytes, 1<<30)))
	rec.State, rec.Output, rec.CompletedAtMS = protocol.AgentState(state), &out, &now
	rec.TimedOut = state == "timed_out"
	return true
}

func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// snapshotAgents advances every child and returns the records plus whether
// any is still active.
func (r *Router) snapshotAgents(ctx context.Context, c *Caller, owner Owner) ([]agentRecord, bool, error) {
	r.agentMu.Lock()
	defer r.agentMu.Unlock()
	agents, err := r.loadAgents(ctx, c, owner)
	if err != nil {
		return nil, false, err
	}
	now := r.now().UnixMilli()
	out := make([]agentRecord, 0, len(agents))
	anyActive := false
	for _, a := range agents {
		if r.advance(a, now) {
			if err := r.saveAgent(ctx, a); err != nil {
				return nil, false, err
			}
		}
		anyActive = anyActive || a.active()
		out = append(out, a.Record)
	}
	return out, anyActive, nil
}

var listParams = agentParams[protocol.AgentListParams]{
	parent: func(p *protocol.AgentListParams) protocol.RequestID { return p.ParentRequestID },
}

func (r *Router) agentList(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, listParams, func(ctx context.Context, owner Owner, _ *protocol.AgentListParams) (any, error) {
		return r.list(ctx, c, owner)
	})
}

func (r *Router) list(ctx context.Context, c *Caller, owner Owner) (any, error) {
	// list observes without settling: only deadlines apply.
	r.agentMu.Lock()
	defer r.agentMu.Unlock()
	agents, err := r.loadAgents(ctx, c, owner)
	if err != nil {
		return nil, err
	}
	now := r.now().UnixMilli()
	out := make([]agentRecord, 0, len(agents))
	for _, a := range agents {
		if a.active() && a.Record.DeadlineMS != nil && now >= *a.Record.DeadlineMS {
			a.Record.State, a.Record.TimedOut, a.Record.CompletedAtMS = "timed_out", true, &now
			if err := r.saveAgent(ctx, a); err != nil {
				return nil, err
			}
		}
		out = append(out, a.Record)
	}
	return protocol.AgentListResult{Agents: out}, nil
}

// agentWait settles what it can and, while children remain active, waits
// up to timeout_ms (on the router's timers) for them to change.
func (r *Router) agentWait(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, waitParams, func(ctx context.Context, owner Owner, p *protocol.AgentWaitParams) (any, error) {
		return r.wait(ctx, c, owner, p)
	})
}

var waitParams = agentParams[protocol.AgentWaitParams]{
	wording: agentWaitWording,
	parent:  func(p *protocol.AgentWaitParams) protocol.RequestID { return p.ParentRequestID },
}

func (r *Router) wait(ctx context.Context, c *Caller, owner Owner, p *protocol.AgentWaitParams) (any, error) {
	expired := make(chan struct{})
	stop := r.cfg.Timers.AfterFunc(time.Duration(p.TimeoutMS)*time.Millisecond, func() { close(expired) })
	defer stop()
	for {
		woken := r.agentWake.wait()
		recs, anyActive, err := r.snapshotAgents(ctx, c, owner)
		if err != nil {
			return nil, err
		}
		if !anyActive {
			return protocol.AgentWaitResult{TimedOut: false, Agents: recs}, nil
		}
		select {
		case <-woken:
		case <-expired:
			recs, anyActive, err := r.snapshotAgents(ctx, c, owner)
			if err != nil {
				return nil, err
			}
			return protocol.AgentWaitResult{TimedOut: anyActive, Agents: recs}, nil
		case <-ctx.Done():
			if context.Cause(ctx) == errParentSettled {
				return nil, unavailable("the parent request settled while waiting")
			}
			return nil, ctx.Err()
		}
	}
}

var modelsParams = agentParams[protocol.AgentModelsParams]{
	wording: agentModelsWording,
	parent:  func(p *protocol.AgentModelsParams) protocol.RequestID { return p.ParentRequestID },
}

// agentModels needs the parent's session owner like every agent/* method, but not the owner itself.
func (r *Router) agentModels(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	return withAgent(r, ctx, c, raw, modelsParams, func(_ context.Context, _ Owner, p *protocol.AgentModelsParams) (any, error) {
		return r.listModels(p), nil
	})
}

func (r *Router) listModels(p *protocol.AgentModelsParams) protocol.AgentModelsResult {
	q := strings.ToLower(deref(p.Query))
	out := []protocol.AgentModel{}
	for _, m := range r.models() {
		if q != "" && !strings.Contains(strings.ToLower(m.Provider+" "+m.Model+" "+m.Label), q) {
			continue
		}
		e := protocol.AgentModel{Provider: m.Provider, Model: m.Model}
		if m.Label != "" {
			e.Label = &m.Label
		}
		out = append(out, e)
		if int64(len(out)) == p.Limit {
			break
		}
	}
	return protocol.AgentModelsResult{Models: out}
}
