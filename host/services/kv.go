package services

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

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

func (r *Router) kvGet(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeBinding(raw, kvWording, func(p *protocol.KVGetParams) error { return checkNamespace(c, "namespace", p.Namespace) }, nil)
	if err != nil {
		return nil, err
	}
	owner, err := r.kvOwner(ctx, c)
	if err != nil {
		return nil, err
	}
	e, found, err := r.store.KVGetOf(ctx, owner, p.Namespace, p.Key)
	if err != nil {
		return nil, internal("kv.get: %v", err)
	}
	if !found {
		return protocol.KVGetResult{Found: false}, nil
	}
	return protocol.KVGetResult{Found: true, Value: e.Value, Version: &e.Version}, nil
}

// listCursor is what the opaque cursor encodes: the last key returned, tied
// to the namespace and prefix it pages through.
type listCursor struct {
	Namespace string `json:"n"`
	Prefix    string `json:"p"`
	After     string `json:"k"`
}

func (r *Router) kvList(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeBinding(raw, kvWording, func(p *protocol.KVListParams) error { return checkNamespace(c, "namespace", p.Namespace) }, nil)
	if err != nil {
		return nil, err
	}
	if len(p.Prefix) > kvKeyMaxBytes {
		return nil, invalidParams("prefix", "is longer than %d bytes", kvKeyMaxBytes)
	}
	limit := int64(kvListDefault)
	if p.Limit != nil {
		limit = *p.Limit
	}
	after := ""
	if cursor := deref(p.Cursor); cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		var cur listCursor
		if err != nil || json.Unmarshal(b, &cur) != nil {
			return nil, invalidParams("cursor", "is not a cursor this host issued")
		}
		if cur.Namespace != p.Namespace || cur.Prefix != p.Prefix {
			return nil, invalidParams("cursor", "was issued for another namespace or prefix")
		}
		after = cur.After
	}
	owner, err := r.kvOwner(ctx, c)
	if err != nil {
		return nil, err
	}
	entries, more, err := r.store.KVListOf(ctx, owner, p.Namespace, p.Prefix, after, int(limit))
	if err != nil {
		return nil, internal("kv.list: %v", err)
	}
	res := protocol.KVListResult{Entries: make([]protocol.KVEntry, len(entries))}
	for i, e := range entries {
		res.Entries[i] = protocol.KVEntry{Key: e.Key, Value: e.Value, Version: e.Version}
	}
	if more {
		b, _ := json.Marshal(listCursor{p.Namespace, p.Prefix, entries[len(entries)-1].Key})
		next := base64.RawURLEncoding.EncodeToString(b)
		res.NextCursor = &next
	}
	return res, nil
}

// kvCommit validates the whole batch (a foreign namespace anywhere refuses
// it all) and hands it to the store, which checks every precondition and
// applies every write in one SQLite transaction.
func (r *Router) kvCommit(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeWorded[protocol.KVCommitParams](raw, kvWording)
	if err != nil {
		return nil, err
	}
	owner, err := r.kvOwner(ctx, c)
	if err != nil {
		return nil, err
	}
	pre := make([]store.KVPrecondition, len(p.Preconditions))
	for i, pc := range p.Preconditions {
		path := fmt.Sprintf("preconditions[%d]", i)
		if v := pc.KVExpectVersion; v != nil {
			pre[i] = store.KVPrecondition{Owner: owner, Namespace: v.Namespace, Key: v.Key, Version: v.Version}
		} else {
			pre[i] = store.KVPrecondition{Owner: owner, Namespace: pc.KVExpectAbsent.Namespace, Key: pc.KVExpectAbsent.Key, Absent: true}
		}
		if err := checkNamespace(c, path+".namespace", pre[i].Namespace); err != nil {
			return nil, err
		}
	}
	writes := make([]store.KVWrite, len(p.Writes))
	for i, w := range p.Writes {
		path := fmt.Sprintf("writes[%d]", i)
		if d := w.KVDelete; d != nil {
			writes[i] = store.KVWrite{Owner: owner, Namespace: d.Namespace, Key: d.Key, Delete: true}
		} else {
			put := w.KVPut
			canon, err := store.Canonical(put.Value)
			if err != nil {
				return nil, invalidParams(path+".value", "%v", err)
			}
			// KV_VALUE_MAX_BYTES bounds the canonical encoding the store keeps, which the
			// schema cannot measure.
			if len(canon) > kvValueMaxBytes {
				return nil, invalidParams(path+".value", "is %d bytes encoded; the limit is %d", len(canon), kvValueMaxBytes)
			}
			writes[i] = store.KVWrite{Owner: owner, Namespace: put.Namespace, Key: put.Key, Value: canon, Canonical: true}
			if err := r.refuseSecret(path, put.Namespace, put.Key, canon); err != nil {
				return nil, err
			}
		}
		if err := checkNamespace(c, path+".namespace", writes[i].Namespace); err != nil {
			return nil, err
		}
	}
	versions, err := r.store.KVCommit(ctx, pre, writes)
	var conflict *store.KVConflict
	if errors.As(err, &conflict) {
		return nil, jsonrpc.NewError(protocol.CodeKVConflict, "kv conflict: "+conflict.Error()+"; re-read and retry",
			map[string]any{"namespace": conflict.Namespace, "key": conflict.Key, "expected": conflict.Expected, "actual": conflict.Actual})
	}
	if err != nil {
		return nil, internal(protocol.MethodKVCommit+": %v", err)
	}
	out := make([]protocol.KVWriteVersion, len(writes))
	for i, w := range writes {
		out[i] = protocol.KVWriteVersion{Namespace: w.Namespace, Key: w.Key}
		if versions[i] != nil {
			out[i].Version = protocol.NullableOf(*versions[i])
		}
	}
	return protocol.KVCommitResult{Versions: out}, nil
}
