package services

import (
	"context"
	"encoding/json"
)

func (r *Router) notYet(context.Context, *Caller, json.RawMessage) (any, error) {
	return nil, unavailable("not implemented yet")
}

func (r *Router) notification(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) confirmation(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) input(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) contextContribution(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) statusContribution(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) presentation(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) progress(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) artifactPublish(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) policyEvaluate(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) secretGet(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) toolsRegister(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) toolsUnregister(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentSpawn(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentMessage(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentFollowUp(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentModels(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentList(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentWait(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) agentInterrupt(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) kvGet(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) kvList(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
func (r *Router) kvCommit(ctx context.Context, c *Caller, p json.RawMessage) (any, error) {
	return r.notYet(ctx, c, p)
}
