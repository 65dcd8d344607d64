package services

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// namespaceSuffix is what may follow "name." in a KV namespace.
var namespaceSuffix = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// checkNamespace binds KV to the caller's identity: its own name or
// name.<suffix>, never what the extension claims to be.
func checkNamespace(c *Caller, path, ns string) error {
	if ns == c.Extension {
		return nil
	}
	if suffix, ok := strings.CutPrefix(ns, c.Extension+"."); ok && namespaceSuffix.MatchString(suffix) && len(ns) <= 256 {
		return nil
	}
	return invalidParams(path, "namespace %q is not %q or %q.<suffix>; an extension may only address its own namespaces", ns, c.Extension, c.Extension)
}

func checkKey(path, key string) error {
	if len(key) < 1 || len(key) > kvKeyMaxBytes || !utf8.ValidString(key) {
		return invalidParams(path, "must be 1..%d bytes of UTF-8", kvKeyMaxBytes)
	}
	return nil
}

type kvGetParams struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
}

type kvGetResult struct {
	Found   bool            `json:"found"`
	Value   json.RawMessage `json:"value,omitempty"`
	Version string          `json:"version,omitempty"`
}

func (r *Router) kvGet(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p kvGetParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := checkNamespace(c, "namespace", p.Namespace); err != nil {
		return nil, err
	}
	if err := checkKey("key", p.Key); err != nil {
		return nil, err
	}
	e, found, err := r.store.KVGet(ctx, p.Namespace, p.Key)
	if err != nil {
		return nil, internal("kv.get: %v", err)
	}
	if !found {
		return kvGetResult{Found: false}, nil
	}
	return kvGetResult{Found: true, Value: e.Value, Version: e.Version}, nil
}

type kvListParams struct {
	Namespace string `json:"namespace"`
	Prefix    string `json:"prefix"`
	Cursor    string `json:"cursor,omitempty"`
	Limit     *int64 `json:"limit,omitempty"`
}

type kvListEntry struct {
	Key     string          `json:"key"`
	Value   json.RawMessage `json:"value"`
	Version string          `json:"version"`
}

type kvListResult struct {
	Entries    []kvListEntry `json:"entries"`
	NextCursor string        `json:"next_cursor,omitempty"`
}

// listCursor is what the opaque cursor encodes: the last key returned, tied
// to the namespace and prefix it pages through.
type listCursor struct {
	Namespace string `json:"n"`
	Prefix    string `json:"p"`
	After     string `json:"k"`
}

func (r *Router) kvList(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p kvListParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if err := checkNamespace(c, "namespace", p.Namespace); err != nil {
		return nil, err
	}
	if len(p.Prefix) > kvKeyMaxBytes {
		return nil, invalidParams("prefix", "is longer than %d bytes", kvKeyMaxBytes)
	}
	limit := int64(kvListDefault)
	if p.Limit != nil {
		if *p.Limit < 1 || *p.Limit > kvListMax {
			return nil, invalidParams("limit", "%d is outside 1..%d", *p.Limit, kvListMax)
		}
		limit = *p.Limit
	}
	after := ""
	if p.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(p.Cursor)
		var cur listCursor
		if err != nil || json.Unmarshal(b, &cur) != nil {
			return nil, invalidParams("cursor", "is not a cursor this host issued")
		}
		if cur.Namespace != p.Namespace || cur.Prefix != p.Prefix {
			return nil, invalidParams("cursor", "was issued for another namespace or prefix")
		}
		after = cur.After
	}
	entries, more, err := r.store.KVList(ctx, p.Namespace, p.Prefix, after, int(limit))
	if err != nil {
		return nil, internal("kv.list: %v", err)
	}
	res := kvListResult{Entries: make([]kvListEntry, len(entries))}
	for i, e := range entries {
		res.Entries[i] = kvListEntry{Key: e.Key, Value: e.Value, Version: e.Version}
	}
	if more {
		b, _ := json.Marshal(listCursor{p.Namespace, p.Prefix, entries[len(entries)-1].Key})
		res.NextCursor = base64.RawURLEncoding.EncodeToString(b)
	}
	return res, nil
}

type kvPrecondition struct {
	Namespace string  `json:"namespace"`
	Key       string  `json:"key"`
	Version   *string `json:"version,omitempty"`
	Absent    *bool   `json:"absent,omitempty"`
}

type kvWrite struct {
	Op        string          `json:"op"`
	Namespace string          `json:"namespace"`
	Key       string          `json:"key"`
	Value     json.RawMessage `json:"value,omitempty"`
}

type kvCommitParams struct {
	Preconditions []kvPrecondition  `json:"preconditions"`
	Writes        []json.RawMessage `json:"writes"`
}

type kvVersion struct {
	Namespace string  `json:"namespace"`
	Key       string  `json:"key"`
	Version   *string `json:"version"`
}

// kvCommit validates the whole batch (a foreign namespace anywhere refuses
// it all) and hands it to the store, which checks every precondition and
// applies every write in one SQLite transaction.
func (r *Router) kvCommit(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p kvCommitParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if len(p.Preconditions) > kvMaxBatch {
		return nil, invalidParams("preconditions", "has %d entries; the limit is %d", len(p.Preconditions), kvMaxBatch)
	}
	if len(p.Writes) < 1 || len(p.Writes) > kvMaxBatch {
		return nil, invalidParams("writes", "has %d entries; send 1..%d", len(p.Writes), kvMaxBatch)
	}
	pre := make([]store.KVPrecondition, len(p.Preconditions))
	for i, pc := range p.Preconditions {
		path := fmt.Sprintf("preconditions[%d]", i)
		if err := checkNamespace(c, path+".namespace", pc.Namespace); err != nil {
			return nil, err
		}
		if err := checkKey(path+".key", pc.Key); err != nil {
			return nil, err
		}
		switch {
		case pc.Version != nil && pc.Absent == nil:
			if !sha256Hex.MatchString(*pc.Version) {
				return nil, invalidParams(path+".version", "must be 64 lowercase hex digits")
			}
			pre[i] = store.KVPrecondition{Namespace: pc.Namespace, Key: pc.Key, Version: *pc.Version}
		case pc.Absent != nil && pc.Version == nil:
			if !*pc.Absent {
				return nil, invalidParams(path+".absent", "must be true (omit the precondition instead)")
			}
			pre[i] = store.KVPrecondition{Namespace: pc.Namespace, Key: pc.Key, Absent: true}
		default:
			return nil, invalidParams(path, "needs exactly one of version or absent")
		}
	}
	writes := make([]store.KVWrite, len(p.Writes))
	for i, rawW := range p.Writes {
		path := fmt.Sprintf("writes[%d]", i)
		var w kvWrite
		if err := decodeAt(rawW, &w, path); err != nil {
			return nil, err
		}
		if err := checkNamespace(c, path+".namespace", w.Namespace); err != nil {
			return nil, err
		}
		if err := checkKey(path+".key", w.Key); err != nil {
			return nil, err
		}
		switch w.Op {
		case "put":
			if len(w.Value) == 0 {
				return nil, invalidParams(path+".value", "is required for put")
			}
			canon, err := store.Canonical(w.Value)
			if err != nil {
				return nil, invalidParams(path+".value", "%v", err)
			}
			if len(canon) > kvValueMaxBytes {
				return nil, invalidParams(path+".value", "is %d bytes encoded; the limit is %d", len(canon), kvValueMaxBytes)
			}
			writes[i] = store.KVWrite{Namespace: w.Namespace, Key: w.Key, Value: canon, Canonical: true}
		case "delete":
			if len(w.Value) != 0 {
				return nil, invalidParams(path+".value", "is not a field of a delete")
			}
			writes[i] = store.KVWrite{Namespace: w.Namespace, Key: w.Key, Delete: true}
		default:
			return nil, invalidParams(path+".op", "%q is not put or delete", w.Op)
		}
	}
	versions, err := r.store.KVCommit(ctx, pre, writes)
	var conflict *store.KVConflict
	if errors.As(err, &conflict) {
		return nil, jsonrpc.NewError(protocol.CodeKVConflict, "kv conflict: "+conflict.Error()+"; re-read and retry",
			map[string]any{"namespace": conflict.Namespace, "key": conflict.Key, "expected": conflict.Expected, "actual": conflict.Actual})
	}
	if err != nil {
		return nil, internal("kv.commit: %v", err)
	}
	out := make([]kvVersion, len(writes))
	for i, w := range writes {
		out[i] = kvVersion{Namespace: w.Namespace, Key: w.Key, Version: versions[i]}
	}
	return map[string]any{"versions": out}, nil
}
