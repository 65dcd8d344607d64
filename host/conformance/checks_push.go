package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Checks of what an extension pushes unprompted: notifications and context and
// status contributions. Each is a notification, so the tool result that follows it
// on the single writer proves it was sent (and arrived) first.

func init() {
	register(
		&Check{
			Name:        "notify.delivered",
			Description: "a notification reaches the host with exactly the message, level and (optional) title the handler gave",
			Requirement: "wire.md §6 notification.params {message ≤ 4096 chars, level, title?}",
			Tier:        Conditional,
			Tools:       []string{"notify"},
			Covers:      []string{protocol.MethodNotification},
			Run:         checkNotify,
		},
		&Check{
			Name:        "contributions.pushed",
			Description: "context and status contributions pushed from a handler reach the host with the items and status the handler gave",
			Requirement: "wire.md §6 context/contribution, status/contribution",
			Tier:        Conditional,
			Tools:       []string{"contribute"},
			Covers:      []string{protocol.MethodContextContribution, protocol.MethodStatusContribution},
			Run:         checkContributionsPushed,
		},
	)
}

func checkNotify(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"message": "hello ✓", "level": "warning", "title": "fixture"}, `{"message":"hello ✓","level":"warning","title":"fixture"}`},
		{map[string]any{"message": "plain", "level": "info"}, `{"message":"plain","level":"info"}`},
	}
	for i, c := range cases {
		resp, err := t.toolCall(s, "notify", c.args)
		if err != nil {
			return err
		}
		if _, err := expectText(resp, "notified"); err != nil {
			return err
		}
		got := s.Notifications(protocol.MethodNotification)
		if len(got) != i+1 {
			return fail(fmt.Sprintf("%d notification frames before the result of notify %d", i+1, i+1), "%d", len(got))
		}
		if !jsonEqual(got[i].Params, []byte(c.want)) {
			return fail("notification params "+c.want, "%s", excerpt(got[i].Params, 200))
		}
	}
	return nil
}

func checkContributionsPushed(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	resp, err := t.toolCall(s, "contribute", map[string]any{"text": "pushed ✓"})
	if err != nil {
		return err
	}
	if _, err := expectText(resp, "contributed"); err != nil {
		return err
	}
	ctx := s.Notifications(protocol.MethodContextContribution)
	want := `{"items":[{"label":"fixture","content":"pushed ✓","placement":"prompt_prefix"}]}`
	if len(ctx) != 1 || !jsonEqual(ctx[0].Params, []byte(want)) {
		return fail("one context/contribution "+want, "%d: %v", len(ctx), notificationTexts(ctx))
	}
	st := s.Notifications(protocol.MethodStatusContribution)
	if len(st) != 1 {
		return fail("one status/contribution", "%d", len(st))
	}
	var got map[string]json.RawMessage
	_ = json.Unmarshal(st[0].Params, &got)
	if role, ok := got["style_role"]; ok && string(role) == "null" {
		delete(got, "style_role") // style_role?: string|null — null is absent
	}
	b, _ := json.Marshal(got)
	if wantStatus := `{"surface":"status","text":"pushed ✓","priority":1}`; !jsonEqual(b, []byte(wantStatus)) {
		return fail("status/contribution "+wantStatus, "%s", excerpt(st[0].Params, 200))
	}
	return nil
}

func notificationTexts(ns []Notification) []string {
	var out []string
	for _, n := range ns {
		out = append(out, excerpt(n.Params, 160))
	}
	return out
}
