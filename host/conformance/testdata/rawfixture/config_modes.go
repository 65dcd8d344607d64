package main

import (
	"encoding/json"
	"regexp"
	"strings"
)

// modeConfigureNoReason refuses configure without a reason, which the ConfigureResult
// contract forbids (config.configure_answered).
const modeConfigureNoReason = "configure-no-reason"

// configure answers configure: it takes any settings (the fixture declares only optional
// ones), or, in modeConfigureNoReason, refuses them without saying why.
func (c *conn) configure(f frame) {
	if mode == modeConfigureNoReason {
		c.respond(f.ID, map[string]any{"accepted": false}, nil)
		return
	}
	c.respond(f.ID, map[string]any{"accepted": true}, nil)
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
