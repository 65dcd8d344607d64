package services

import "fmt"

// The reasons the host has always given for faults the generated validators now judge,
// per method (see wording). Each names the field's rule the way the conformance guide and
// the host's tests quote it; the verdict is the schema's.

func fixed(reason string) func(string) string { return func(string) string { return reason } }

// outside words a number out of its range as "<got> is outside lo..hi".
func outside(lo, hi int64) func(string) string {
	return func(got string) string { return fmt.Sprintf("%s is outside %d..%d", got, lo, hi) }
}

// batch words a list's item count against "send 1..max".
func batch(max int) func(string) string {
	return func(got string) string { return fmt.Sprintf("has %s entries; send 1..%d", got, max) }
}

var kvKeyReason = fixed(fmt.Sprintf("must be 1..%d bytes of UTF-8", kvKeyMaxBytes))

var kvWording = wording{
	"/key minLength": kvKeyReason, "/key maxLength": kvKeyReason,
	"/preconditions/*/key minLength": kvKeyReason, "/preconditions/*/key maxLength": kvKeyReason,
	"/writes/*/key minLength": kvKeyReason, "/writes/*/key maxLength": kvKeyReason,
	"/limit minimum": outside(1, kvListMax), "/limit maximum": outside(1, kvListMax),
	"/writes minItems": batch(kvMaxBatch), "/writes maxItems": batch(kvMaxBatch),
	"/preconditions/*/version pattern": fixed("must be 64 lowercase hex digits"),
}

var catalogWording = wording{
	"/tools minItems": batch(maxToolsPerRequest), "/tools maxItems": batch(maxToolsPerRequest),
	"/names minItems": batch(maxToolsPerRequest), "/names maxItems": batch(maxToolsPerRequest),
}

var agentWaitWording = wording{
	"/timeout_ms minimum": outside(agentWaitMinMS, agentWaitMaxMS), "/timeout_ms maximum": outside(agentWaitMinMS, agentWaitMaxMS),
}

var agentModelsWording = wording{
	"/limit minimum": outside(1, agentModelsMaxLimit), "/limit maximum": outside(1, agentModelsMaxLimit),
}

var secretWording = wording{
	"/name pattern": func(got string) string {
		return got + " is not a secret name (letter or underscore, then letters, digits, _ . -; at most 64 bytes)"
	},
}

var progressWording = wording{
	"/sequence minimum": fixed("must be an integer from 1 to 2^53−1"),
	"/event type":       fixed("must be an object with a type"),
}

var inputWording = wording{
	"/prompt pattern":          fixed("must contain a non-whitespace character"),
	"/options/*/value pattern": fixed("must contain a non-whitespace character"),
	"/options/*/label pattern": fixed("must contain a non-whitespace character"),
	"/options minItems":        batch(inputOptionsMax),
	"/options maxItems":        batch(inputOptionsMax),
}

var agentMessageReason = fixed(fmt.Sprintf("must be 1..%d bytes", agentMessageMaxBytes))

var agentWording = wording{
	"/message minLength": agentMessageReason, "/message maxLength": agentMessageReason,
	"/idempotency_key minLength": fixed("must be 1..256 bytes"), "/idempotency_key maxLength": fixed("must be 1..256 bytes"),
	"/fingerprint pattern": fixed("must be 64 lowercase hex digits"),
}
