package services

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// notification validates, records and forwards a notification.
func (r *Router) notification(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.NotificationParams](raw)
	if err != nil {
		return nil, err
	}
	if hasControl(p.Message, true) || hasControl(deref(p.Title), false) {
		return nil, invalidParams("message", "contains control characters; notifications are plain text")
	}
	n, b := r.redacted(Notification{Message: p.Message, Level: p.Level, Title: deref(p.Title)})
	if err := r.store.AppendEvent(ctx, r.now().UnixMilli(), string(EventNotification), c.Extension, b); err != nil {
		return nil, internal("record notification: %v", err)
	}
	r.emit(c, EventNotification, n)
	return nil, nil
}

func (r *Router) contextContribution(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.ContextContributionParams](raw)
	if err != nil {
		return nil, err
	}
	r.emit(c, EventContext, ContextContribution{Items: p.Items})
	return nil, nil
}

func (r *Router) statusContribution(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeBinding(raw, nil, func(p *protocol.StatusContributionParams) error { return declaredSurface(c, string(p.Surface)) }, nil)
	if err != nil {
		return nil, err
	}
	if hasControl(p.Text, false) {
		return nil, invalidParams("text", "contains control characters; status text is plain text")
	}
	s := StatusContribution{Surface: string(p.Surface), Text: p.Text, Priority: p.Priority}
	if p.StyleRole.Present && !p.StyleRole.Null {
		s.StyleRole = &p.StyleRole.Value
	}
	r.emit(c, EventStatus, s)
	return nil, nil
}

// declaredSurface binds status/contribution to the manifest: only a surface it declares.
func declaredSurface(c *Caller, surface string) error {
	if !slices.Contains(c.UI, surface) {
		return invalidParams("surface", "%q is not a surface the manifest declares (contributes.ui = %v)", surface, c.UI)
	}
	return nil
}
