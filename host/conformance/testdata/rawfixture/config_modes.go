package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// modeConfigureNoReason refuses configure without a reason, which the ConfigureResult
// contract forbids (config.configure_answered).
const modeConfigureNoReason = "configure-no-reason"

// The settings modes break what configure does to the settings in force
// (config.settings_delivered, config.dry_run_changes_nothing, config.refusal_keeps_old).
const (
	modeConfigureIgnored = "configure-ignored" // accepts and keeps the old settings
	modeDryRunApplies    = "dry-run-applies"   // a dry run comes into force
	modeRefusalApplies   = "refusal-applies"   // a refused value comes into force anyway
)

// inForce is the fixture's settings in force: the note and its revision.
var inForce struct {
	sync.Mutex
	note     string
	revision int64
}

// configure answers configure as docs/design/fixture.md says: a note "refuse-me" is refused
// with a reason, anything else is accepted and (outside a dry run) comes into force. In
// modeConfigureNoReason it refuses everything without saying why.
func (c *conn) configure(f frame) {
	if mode == modeConfigureNoReason {
		c.respond(f.ID, map[string]any{"accepted": false}, nil)
		return
	}
	var p struct {
		Settings struct {
			Note string `json:"note"`
		} `json:"settings"`
		DryRun   bool  `json:"dry_run"`
		Revision int64 `json:"revision"`
	}
	if err := json.Unmarshal(f.Params, &p); err != nil {
		c.respond(f.ID, nil, invalidParams("configure params: %v", err))
		return
	}
	refused := p.Settings.Note == "refuse-me"
	apply := !refused && !p.DryRun
	switch mode {
	case modeConfigureIgnored:
		apply = false
	case modeDryRunApplies:
		apply = !refused
	case modeRefusalApplies:
		apply = !p.DryRun
	}
	if apply {
		inForce.Lock()
		inForce.note, inForce.revision = p.Settings.Note, p.Revision
		inForce.Unlock()
	}
	if refused {
		c.respond(f.ID, map[string]any{"accepted": false, "reasons": []string{`note "refuse-me" is refused`}}, nil)
		return
	}
	c.respond(f.ID, map[string]any{"accepted": true}, nil)
}

// modeKeyDropped hides the call's idempotency key from the handler, as an SDK that parses
// the key but never passes it on would (idempotency.key_delivered).
const modeKeyDropped = "idempotency-key-dropped"

// configTool serves settings_in_force and idempotency_key_seen (key is the call's).
func configTool(name, key string) (any, bool) {
	switch name {
	case "settings_in_force":
		inForce.Lock()
		defer inForce.Unlock()
		return text(fmt.Sprintf("%s@%d", inForce.note, inForce.revision)), true
	case "idempotency_key_seen":
		if mode == modeKeyDropped {
			key = ""
		}
		return text("key=" + key), true
	}
	return nil, false
}

// modeIdempotencyKeyUnknown refuses tool/call params carrying idempotency_key as an unknown
// field, as a fixture written before the field would (idempotency.key_accepted).
const modeIdempotencyKeyUnknown = "idempotency-key-unknown"

// idempotencyKeyRE is ToolCallParams' idempotency_key pattern.
var idempotencyKeyRE = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// checkIdempotencyKey judges the key as the schema does (or, in the broken mode, refuses
// the member outright).
func checkIdempotencyKey(params json.RawMessage, key string) *rpcError {
	present := strings.Contains(string(params), `"idempotency_key"`)
	switch {
	case present && mode == modeIdempotencyKeyUnknown:
		return invalidParams(`tool/call params: json: unknown field "idempotency_key"`)
	case present && !idempotencyKeyRE.MatchString(key):
		return invalidParams("idempotency_key: %q does not match %s", key, idempotencyKeyRE)
	}
	return nil
}
