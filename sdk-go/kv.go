package octet

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The KV conveniences of schema/sdk-surface.json, beside the generated Get, List and Commit
// (services_gen.go): every one is sent as those operations, so the schema's bounds and the
// negotiated feature are checked by Send alone. Namespaces default to the extension's own
// name; name + "." + suffix is the extension's too.

// KVNamespace is the option of the KV conveniences: "" is the extension's own namespace.
type KVNamespace struct{ Namespace string }

func (s *KVService) ns(opts []KVNamespace) (string, error) {
	if err := atMostOne("KV", len(opts)); err != nil {
		return "", err
	}
	if len(opts) == 1 && opts[0].Namespace != "" {
		return opts[0].Namespace, nil
	}
	return s.e.ownNamespace(), nil
}

// Scan returns every entry under prefix, following list cursors page by page.
func (s *KVService) Scan(ctx context.Context, prefix string, opts ...KVNamespace) ([]protocol.KVEntry, error) {
	ns, err := s.ns(opts)
	if err != nil {
		return nil, err
	}
	var out []protocol.KVEntry
	var cursor *string
	for {
		page, err := s.List(ctx, prefix, KVListOptions{Namespace: ns, Cursor: cursor})
		if err != nil {
			return out, err
		}
		out = append(out, page.Entries...)
		if page.NextCursor == nil {
			return out, nil
		}
		cursor = page.NextCursor
	}
}

// Put writes value (any JSON-encodable value) unconditionally, as a one-write commit.
func (s *KVService) Put(ctx context.Context, key string, value any, opts ...KVNamespace) (protocol.KVCommitResult, error) {
	ns, err := s.ns(opts)
	if err != nil {
		return protocol.KVCommitResult{}, err
	}
	tx := s.Transaction()
	if err := tx.Put(key, value, KVNamespace{ns}); err != nil {
		return protocol.KVCommitResult{}, err
	}
	return tx.Commit(ctx)
}

// Delete removes key unconditionally, as a one-write commit.
func (s *KVService) Delete(ctx context.Context, key string, opts ...KVNamespace) (protocol.KVCommitResult, error) {
	ns, err := s.ns(opts)
	if err != nil {
		return protocol.KVCommitResult{}, err
	}
	return s.Transaction().Delete(key, KVNamespace{ns}).Commit(ctx)
}

// Transaction starts a builder of preconditions and writes sent as one commit: every write
// applies only if every precondition holds; a failed one is kv_conflict (-32005) and
// applies nothing (re-read and retry).
func (s *KVService) Transaction() *KVTransaction { return &KVTransaction{s: s} }

// KVTransaction collects one commit. Its methods return it, for chaining.
type KVTransaction struct {
	s      *KVService
	params protocol.KVCommitParams
	err    error
}

func (tx *KVTransaction) ns(opts []KVNamespace) string {
	ns, err := tx.s.ns(opts)
	if err != nil && tx.err == nil {
		tx.err = err
	}
	return ns
}

// Expect requires key to hold the value of version (a KVGet result's Version).
func (tx *KVTransaction) Expect(key, version string, opts ...KVNamespace) *KVTransaction {
	tx.params.Preconditions = append(tx.params.Preconditions, protocol.KVPrecondition{KVExpectVersion: &protocol.KVExpectVersion{Namespace: tx.ns(opts), Key: key, Version: version}})
	return tx
}

// ExpectAbsent requires key to be absent.
func (tx *KVTransaction) ExpectAbsent(key string, opts ...KVNamespace) *KVTransaction {
	tx.params.Preconditions = append(tx.params.Preconditions, protocol.KVPrecondition{KVExpectAbsent: &protocol.KVExpectAbsent{Namespace: tx.ns(opts), Key: key, Absent: true}})
	return tx
}

// Put stages a write of value (any JSON-encodable value); an error is the value's encoding.
func (tx *KVTransaction) Put(key string, value any, opts ...KVNamespace) error {
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	tx.params.Writes = append(tx.params.Writes, protocol.KVWrite{KVPut: &protocol.KVPut{Op: "put", Namespace: tx.ns(opts), Key: key, Value: raw}})
	return nil
}

// Delete stages a delete.
func (tx *KVTransaction) Delete(key string, opts ...KVNamespace) *KVTransaction {
	tx.params.Writes = append(tx.params.Writes, protocol.KVWrite{KVDelete: &protocol.KVDelete{Op: "delete", Namespace: tx.ns(opts), Key: key}})
	return tx
}

// Commit sends the preconditions and writes as one commit.
func (tx *KVTransaction) Commit(ctx context.Context) (protocol.KVCommitResult, error) {
	if tx.err != nil {
		return protocol.KVCommitResult{}, tx.err
	}
	return tx.s.Commit(ctx, tx.params.Writes, KVCommitOptions{Preconditions: tx.params.Preconditions})
}
