package services

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

type notificationParams struct {
	Message string `json:"message"`
	Level   string `json:"level"`
	Title   string `json:"title,omitempty"`
}

var notificationLevels = []string{"info", "success", "warning", "error"}

// notification validates, records and forwards a notification.
func (r *Router) notification(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p notificationParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if chars(p.Message) > notificationMaxChars {
		return nil, invalidParams("message", "is %d characters; the limit is %d", chars(p.Message), notificationMaxChars)
	}
	if !slices.Contains(notificationLevels, p.Level) {
		return nil, invalidParams("level", "%q is not one of %s", p.Level, strings.Join(notificationLevels, ", "))
	}
	if hasControl(p.Message, true) || hasControl(p.Title, false) {
		return nil, invalidParams("message", "contains control characters; notifications are plain text")
	}
	n, b := r.redacted(Notification{Message: p.Message, Level: p.Level, Title: p.Title})
	if err := r.store.AppendEvent(ctx, r.now().UnixMilli(), string(EventNotification), c.Extension, b); err != nil {
		return nil, internal("record notification: %v", err)
	}
	r.emit(c, EventNotification, n)
	return nil, nil
}

type contextParams struct {
	Items []ContextItem `json:"items"`
}

var placements = []string{"system_prefix", "system_suffix", "prompt_prefix", "prompt_suffix"}

func (r *Router) contextContribution(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p contextParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	for i, it := range p.Items {
		if !slices.Contains(placements, it.Placement) {
			return nil, invalidParams("items["+itoa(i)+"].placement", "%q is not one of %s", it.Placement, strings.Join(placements, ", "))
		}
	}
	r.emit(c, EventContext, ContextContribution(p))
	return nil, nil
}

type statusParams struct {
	Surface   string  `json:"surface"`
	Text      string  `json:"text"`
	Priority  int64   `json:"priority"`
	StyleRole *string `json:"style_role,omitempty" octet:"nullable"`
}

func (r *Router) statusContribution(_ context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p statusParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if !slices.Contains(c.UI, p.Surface) {
		return nil, invalidParams("surface", "%q is not a surface the manifest declares (contributes.ui = %v)", p.Surface, c.UI)
	}
	if chars(p.Text) > statusTextMaxChars {
		return nil, invalidParams("text", "is %d characters; the limit is %d", chars(p.Text), statusTextMaxChars)
	}
	if hasControl(p.Text, false) {
		return nil, invalidParams("text", "contains control characters; status text is plain text")
	}
	if p.Priority > maxSafeInteger || p.Priority < -maxSafeInteger {
		return nil, invalidParams("priority", "is outside ±(2^53−1)")
	}
	r.emit(c, EventStatus, StatusContribution(p))
	return nil, nil
}
