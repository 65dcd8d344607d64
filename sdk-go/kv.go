package octet

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// KVGet reads a key (API 0.4, negotiated kv). Namespaces are the extension's
// name or name + "." + suffix.
func (e *Extension) KVGet(ctx context.Context, namespace, key string) (protocol.KVGetResult, error) {
	var res protocol.KVGetResult
	if _, err := e.need("KVGet", protocol.FeatureKV); err != nil {
		return res, err
	}
	if err := e.migrated(ctx); err != nil {
		return res, err
	}
	if n := len(key); n == 0 || n > protocol.KVKeyMaxBytes {
		return res, localError("kv key of %d bytes is outside 1..%d", n, protocol.KVKeyMaxBytes)
	}
	err := e.ask(ctx, protocol.MethodKVGet, map[string]any{"namespace": namespace, "key": key}, &res)
	return res, err
}

// KVList lists keys with a prefix, one page at a time (limit 1..1000; 0 = 100).
func (e *Extension) KVList(ctx context.Context, namespace, prefix, cursor string, limit int) (protocol.KVListResult, error) {
	var res protocol.KVListResult
	if _, err := e.need("KVList", protocol.FeatureKV); err != nil {
		return res, err
	}
	if err := e.migrated(ctx); err != nil {
		return res, err
	}
	params := map[string]any{"namespace": namespace, "prefix": prefix}
	if cursor != "" {
		params["cursor"] = cursor
	}
	if limit != 0 {
		if limit < 1 || limit > protocol.KVListMax {
			return res, localError("kv list limit %d is outside 1..%d", limit, protocol.KVListMax)
		}
		params["limit"] = limit
	}
	err := e.ask(ctx, protocol.MethodKVList, params, &res)
	return res, err
}

// KVCommit applies writes atomically when every precondition holds; a failed
// precondition is -32005 (kv_conflict) and applies nothing: re-read and retry.
func (e *Extension) KVCommit(ctx context.Context, commit protocol.KVCommitParams) (protocol.KVCommitResult, error) {
	var res protocol.KVCommitResult
	if _, err := e.need("KVCommit", protocol.FeatureKV); err != nil {
		return res, err
	}
	if err := e.migrated(ctx); err != nil {
		return res, err
	}
	if n := len(commit.Writes); n == 0 || n > protocol.KVMaxBatch {
		return res, localError("kv commit has %d writes; 1..%d allowed", n, protocol.KVMaxBatch)
	}
	if len(commit.Preconditions) > protocol.KVMaxBatch {
		return res, localError("kv commit has %d preconditions; at most %d", len(commit.Preconditions), protocol.KVMaxBatch)
	}
	err := e.ask(ctx, protocol.MethodKVCommit, commit, &res)
	return res, err
}

// KVCommitRaw passes a kv.commit params object through unchanged (for callers that
// already hold the wire JSON).
func (e *Extension) KVCommitRaw(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	if _, err := e.need("KVCommit", protocol.FeatureKV); err != nil {
		return nil, err
	}
	if err := e.migrated(ctx); err != nil {
		return nil, err
	}
	var res json.RawMessage
	err := e.ask(ctx, protocol.MethodKVCommit, params, &res)
	return res, err
}
