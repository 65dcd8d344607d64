package conformance

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The settings checks prove what configure does, not only what it answers: through the
// fixture's settings_in_force tool (docs/design/fixture.md), a value accepted comes into
// force with its revision in the same process, a dry run and a refusal leave the settings
// in force as they were. idempotency.key_delivered proves the handler sees the call's key.

func init() {
	register(&Check{
		Name:        "config.settings_delivered",
		Description: "settings delivered by configure come into force in the same process with the host's revision: note \"first\" at revision 1, then \"second\" at 2, as settings_in_force shows",
		Requirement: "docs/settings.md (Changing them while the extension runs; In each SDK: the settings in force, with their revision)",
		Tier:        Conditional,
		Tools:       []string{"settings_in_force"},
		Features:    []protocol.Feature{protocol.FeatureConfigure},
		Covers:      []string{protocol.MethodConfigure},
		Run:         checkSettingsDelivered,
	})
	register(&Check{
		Name:        "config.dry_run_changes_nothing",
		Description: "a dry-run configure is judged like a real one (accepted; the refused value refused with reasons) and changes nothing: the settings and revision in force stay",
		Requirement: "docs/settings.md (dry_run asks the extension to judge only: it answers as for a real change and applies nothing)",
		Tier:        Conditional,
		Tools:       []string{"settings_in_force"},
		Features:    []protocol.Feature{protocol.FeatureConfigure},
		Covers:      []string{protocol.MethodConfigure},
		Run:         checkDryRunChangesNothing,
	})
	register(&Check{
		Name:        "config.refusal_keeps_old",
		Description: "settings the extension refuses (note \"refuse-me\") are answered accepted false with a reason and the settings in force stay; a later accepted change still comes into force",
		Requirement: "docs/settings.md (a refusal keeps the settings in force)",
		Tier:        Conditional,
		Tools:       []string{"settings_in_force"},
		Features:    []protocol.Feature{protocol.FeatureConfigure},
		Covers:      []string{protocol.MethodConfigure},
		Run:         checkRefusalKeepsOld,
	})
	register(&Check{
		Name:        "idempotency.key_delivered",
		Description: "the idempotency_key a tool/call carries reaches the handler (idempotency_key_seen answers key=KEY), and a call without one shows none",
		Requirement: "docs/host.md#idempotent-tool-calls (Go octet.IdempotencyKey, Python context[\"idempotency_key\"], TypeScript ctx.idempotencyKey)",
		Tier:        Conditional,
		Tools:       []string{"idempotency_key_seen"},
		Run:         checkKeyDelivered,
	})
}

// settingsSession opens a session that negotiated configure.
func settingsSession(t *T) (*Session, error) {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return nil, err
	}
	return s, needFeature(r, protocol.FeatureConfigure)
}

// configureNote sends configure {settings: {note}, dry_run, revision} and returns the result.
func configureNote(t *T, s *Session, note string, dry bool, revision int) (protocol.ConfigureResult, error) {
	var res protocol.ConfigureResult
	resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodConfigure, map[string]any{"settings": map[string]any{"note": note}, "dry_run": dry, "revision": revision})
	if err != nil {
		return res, err
	}
	if resp.Error != nil {
		return res, fail("a ConfigureResult", "configure note %q (dry_run %v) answered an error: %s", note, dry, resp.Error)
	}
	if err := json.Unmarshal(resp.Result, &res); err != nil {
		return res, fail("a ConfigureResult", "%s (%v)", excerpt(resp.Result, 200), err)
	}
	return res, nil
}

// accept configures note and expects it accepted.
func accept(t *T, s *Session, note string, dry bool, revision int) error {
	res, err := configureNote(t, s, note, dry, revision)
	if err == nil && !res.Accepted {
		err = fail(fmt.Sprintf("note %q accepted", note), "refused: %s", strings.Join(res.Reasons, "; "))
	}
	return err
}

// refuse configures note "refuse-me" and expects the refusal with a reason.
func refuse(t *T, s *Session, dry bool, revision int) error {
	res, err := configureNote(t, s, "refuse-me", dry, revision)
	if err == nil && (res.Accepted || len(res.Reasons) == 0) {
		err = fail(`note "refuse-me" refused with a reason (docs/design/fixture.md)`, "accepted %v, reasons %q", res.Accepted, res.Reasons)
	}
	return err
}

// inForce expects settings_in_force to answer want ("note@revision").
func inForce(t *T, s *Session, want, after string) error {
	resp, err := t.toolCall(s, "settings_in_force", map[string]any{})
	if err != nil {
		return err
	}
	if _, err := expectText(resp, want); err != nil {
		return fmt.Errorf("after %s: %w", after, err)
	}
	return nil
}

func checkSettingsDelivered(t *T) error {
	s, err := settingsSession(t)
	if err != nil {
		return err
	}
	if err := accept(t, s, "first", false, 1); err != nil {
		return err
	}
	if err := inForce(t, s, "first@1", "configure note first, revision 1"); err != nil {
		return err
	}
	if err := accept(t, s, "second", false, 2); err != nil {
		return err
	}
	return inForce(t, s, "second@2", "configure note second, revision 2")
}

func checkDryRunChangesNothing(t *T) error {
	s, err := settingsSession(t)
	if err != nil {
		return err
	}
	if err := accept(t, s, "kept", false, 1); err != nil {
		return err
	}
	if err := accept(t, s, "dry", true, 2); err != nil {
		return err
	}
	if err := refuse(t, s, true, 2); err != nil {
		return err
	}
	return inForce(t, s, "kept@1", "dry runs of note dry and refuse-me at revision 2")
}

func checkRefusalKeepsOld(t *T) error {
	s, err := settingsSession(t)
	if err != nil {
		return err
	}
	if err := accept(t, s, "kept", false, 1); err != nil {
		return err
	}
	if err := refuse(t, s, false, 2); err != nil {
		return err
	}
	if err := inForce(t, s, "kept@1", "the refused note refuse-me at revision 2"); err != nil {
		return err
	}
	if err := accept(t, s, "after", false, 3); err != nil {
		return err
	}
	return inForce(t, s, "after@3", "configure note after, revision 3")
}

func checkKeyDelivered(t *T) error {
	if t.Ext.Manifest.APIVersion == "0.1" {
		return skip("API 0.1 has no idempotency_key")
	}
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	for _, key := range []string{"order-9:retry.1", ""} {
		params := map[string]any{"name": "idempotency_key_seen", "arguments": map[string]any{}}
		if key != "" {
			params["idempotency_key"] = key
		}
		resp, err := s.Call(t.Ctx, t.Timeout(), protocol.MethodToolCall, params)
		if err != nil {
			return err
		}
		if _, err := expectText(resp, "key="+key); err != nil {
			return fmt.Errorf("tool/call with idempotency_key %q: %w", key, err)
		}
	}
	return nil
}
