package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// IdempotencyStore keeps tool results under the caller's idempotency keys, durably, so a
// retry (after a lost answer, a crash of the caller or a host restart) gets the recorded
// result instead of a second call. The reference host's SQLite store implements it.
type IdempotencyStore interface {
	// LookupResult returns the digest of the call recorded under (extension, key) and its
	// result, or found false.
	LookupResult(ctx context.Context, extension, key string) (digest string, result []byte, found bool, err error)
	// RecordResult records result under (extension, key) with the call's digest; a key
	// recorded already keeps its first result.
	RecordResult(ctx context.Context, extension, key, digest string, result []byte) error
}

// IdempotencyConflictError is a key reused for a different call: the tool or arguments
// differ from what the key recorded. Nothing is sent.
type IdempotencyConflictError struct {
	Extension, Tool, Key string
}

func (e *IdempotencyConflictError) Error() string {
	return fmt.Sprintf("extension %s: idempotency key %q was recorded for a different call; tool %q with these arguments needs a new key", e.Extension, e.Key, e.Tool)
}

// callDigest identifies a call for its key: the tool name and the arguments in a canonical
// form (keys sorted, no insignificant space, numbers as written), so a retry that
// re-encodes the same arguments matches and different arguments do not.
func callDigest(tool string, args json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", fmt.Errorf("arguments are not JSON: %v", err)
	}
	canon, err := json.Marshal(v) // maps marshal with sorted keys
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(tool))
	h.Write([]byte{0})
	h.Write(canon)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// callIdempotent is Call for a call with an idempotency key: a recorded result with the same
// digest is replayed without a call, a different digest is an *IdempotencyConflictError,
// and a result the host accepted is recorded before it is returned. An error answer is not
// recorded: the retry calls again.
func (e *Extension) callIdempotent(ctx context.Context, c ToolCall, call func() (json.RawMessage, error)) (json.RawMessage, error) {
	st := e.host.opts.Idempotency
	if st == nil {
		return nil, fmt.Errorf("extension %s: an idempotency key needs a host with a store", e.name)
	}
	args := c.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	digest, err := callDigest(c.Name, args)
	if err != nil {
		return nil, err
	}
	prev, result, found, err := st.LookupResult(ctx, e.name, c.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	if found {
		if prev != digest {
			return nil, &IdempotencyConflictError{Extension: e.name, Tool: c.Name, Key: c.IdempotencyKey}
		}
		return json.RawMessage(result), nil
	}
	out, err := call()
	if err != nil {
		return nil, err
	}
	if err := st.RecordResult(ctx, e.name, c.IdempotencyKey, digest, out); err != nil {
		return nil, err
	}
	return out, nil
}

type idempotencyKeyCtx struct{}

// WithIdempotencyKey makes the tool calls made with ctx carry key (a ToolCall's own
// IdempotencyKey wins): for callers that reach Extension.Call through layers that do not
// know the key (hooks, the reference session).
func WithIdempotencyKey(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, idempotencyKeyCtx{}, key)
}
