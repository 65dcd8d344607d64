package octet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// KVVersionKey is the key, in the extension's own namespace, that holds the stored
// kv_version: the host reads it to refuse a downgrade, the SDK to run migrations.
const KVVersionKey = "octet:kv_version"

// MigrationFunc rewrites the KV data of one version into the next. It reads through
// tx (the committed data) and stages its writes in tx; the SDK commits them with the
// version bump in one KV commit.
type MigrationFunc func(ctx context.Context, tx *MigrationTx) error

// Migration registers the step that migrates the extension's KV data from version
// from to from+1 (from >= 1: data stored without a version is version 1). Before the
// first KV call, when the manifest's [state] kv_version is greater than the stored
// one, the SDK runs the missing steps in order, each in one atomic KV commit.
func (e *Extension) Migration(from int, fn MigrationFunc) {
	if from < 1 {
		panic(fmt.Sprintf("octet: Migration(%d): steps start at version 1 (data stored without a version is version 1)", from))
	}
	if fn == nil {
		panic("octet: Migration needs a function")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.migrations == nil {
		e.migrations = map[int64]MigrationFunc{}
	}
	if _, dup := e.migrations[int64(from)]; dup {
		panic(fmt.Sprintf("octet: Migration(%d) is registered twice", from))
	}
	e.migrations[int64(from)] = fn
}

// MigrationError is the classified failure of the KV migration: Kind
// "kv_migration_missing" (no step registered from From) or "kv_migration_failed" (the
// step from From to To returned an error, or its commit failed). The old data and
// version stay in force; the next KV call tries again. The message is the same in the
// three SDKs.
type MigrationError struct {
	Kind     string
	From, To int64
	Stored   int64
	Declared int64
	Reason   string
	Err      error
}

func (m *MigrationError) Error() string {
	if m.Kind == "kv_migration_missing" {
		return fmt.Sprintf("kv_migration_missing: no kv migration from version %d to %d is registered (stored kv_version %d, declared %d)", m.From, m.To, m.Stored, m.Declared)
	}
	return fmt.Sprintf("kv_migration_failed: kv migration from version %d to %d failed: %s", m.From, m.To, m.Reason)
}

func (m *MigrationError) Unwrap() error { return m.Err }

// MigrationTx is one migration step's view of KV: reads see the committed data (not
// the step's own staged writes), writes are staged and committed with the version bump.
type MigrationTx struct {
	e      *Extension
	writes []protocol.KVWrite
}

// Get reads a key of namespace ("" is the extension's own).
func (tx *MigrationTx) Get(ctx context.Context, namespace, key string) (protocol.KVGetResult, error) {
	return tx.e.KV.Get(ctx, key, KVGetOptions{Namespace: tx.ns(namespace)})
}

// List lists one page of keys with a prefix in namespace ("" is the extension's own).
func (tx *MigrationTx) List(ctx context.Context, namespace, prefix, cursor string) (protocol.KVListResult, error) {
	opts := KVListOptions{Namespace: tx.ns(namespace)}
	if cursor != "" {
		opts.Cursor = &cursor
	}
	return tx.e.KV.List(ctx, prefix, opts)
}

// Put stages a write of value (any JSON-encodable value).
func (tx *MigrationTx) Put(namespace, key string, value any) error {
	if key == KVVersionKey {
		return errors.New("octet: a migration does not write " + KVVersionKey + "; the SDK does")
	}
	raw, err := json.Marshal(value)
	if err != nil {
		return err
	}
	tx.writes = append(tx.writes, protocol.KVWrite{KVPut: &protocol.KVPut{Op: "put", Namespace: tx.ns(namespace), Key: key, Value: raw}})
	return nil
}

// Delete stages a delete.
func (tx *MigrationTx) Delete(namespace, key string) {
	tx.writes = append(tx.writes, protocol.KVWrite{KVDelete: &protocol.KVDelete{Op: "delete", Namespace: tx.ns(namespace), Key: key}})
}

func (tx *MigrationTx) ns(namespace string) string {
	if namespace == "" {
		return tx.e.ownNamespace()
	}
	return namespace
}

func (e *Extension) ownNamespace() string {
	if s := e.session.Load(); s != nil {
		return string(s.manifest.Name)
	}
	return ""
}

// maxMigrationConflicts bounds the re-reads after kv_conflict: each one means another
// generation advanced the version, so a few suffice; more is a store that never agrees.
const maxMigrationConflicts = 16

// migrationState guards the migration run: one at a time, done once it succeeded.
type migrationState struct {
	mu   sync.Mutex
	done bool
}

// migrated runs the missing migrations before the first KV call (lazily: KV host
// calls are possible only once initialize is answered, and an extension that never
// touches KV is never delayed). A failure is returned to that KV call and retried on
// the next one.
func (e *Extension) migrated(ctx context.Context) error {
	e.migration.mu.Lock()
	defer e.migration.mu.Unlock()
	if e.migration.done {
		return nil
	}
	if err := e.runMigrations(ctx); err != nil {
		return err
	}
	e.migration.done = true
	return nil
}

// declaredKVVersion reads the manifest's [state] kv_version (0 when absent).
func (e *Extension) declaredKVVersion() int64 {
	info := e.Info()
	if info == nil {
		return 0
	}
	var m struct {
		State struct {
			KVVersion int64 `json:"kv_version"`
		} `json:"state"`
	}
	_ = json.Unmarshal(info.Manifest, &m) // the schema checked it in initialize
	return m.State.KVVersion
}

// storedKVVersion reads octet:kv_version: the version (absent is 1) and the
// precondition that pins it for the next commit.
func (e *Extension) storedKVVersion(ctx context.Context) (int64, protocol.KVPrecondition, error) {
	ns := e.ownNamespace()
	res, err := e.KV.Get(ctx, KVVersionKey, KVGetOptions{Namespace: ns})
	if err != nil {
		return 0, protocol.KVPrecondition{}, err
	}
	if !res.Found || res.Version == nil {
		return 1, protocol.KVPrecondition{KVExpectAbsent: &protocol.KVExpectAbsent{Namespace: ns, Key: KVVersionKey, Absent: true}}, nil
	}
	var v float64
	if err := json.Unmarshal(res.Value, &v); err != nil || v != float64(int64(v)) || v < 0 {
		return 0, protocol.KVPrecondition{}, fmt.Errorf("the stored %s is %s, not a non-negative integer", KVVersionKey, string(res.Value))
	}
	return int64(v), protocol.KVPrecondition{KVExpectVersion: &protocol.KVExpectVersion{Namespace: ns, Key: KVVersionKey, Version: *res.Version}}, nil
}

func (e *Extension) runMigrations(ctx context.Context) error {
	declared := e.declaredKVVersion()
	if declared <= 1 {
		return nil // data stored without a version is version 1: nothing to read or run
	}
	ctx = context.WithValue(ctx, migratingKey{}, true) // the migration's own KV calls do not wait for it
	e.mu.Lock()
	steps := e.migrations
	e.mu.Unlock()
	for conflicts := 0; ; {
		stored, pre, err := e.storedKVVersion(ctx)
		if err != nil {
			return &MigrationError{Kind: "kv_migration_failed", From: stored, To: declared, Reason: reasonOf(err), Err: err}
		}
		if stored >= declared {
			return nil // up to date (a newer stored version is the host's state_downgrade)
		}
		fn, ok := steps[stored]
		if !ok {
			return &MigrationError{Kind: "kv_migration_missing", From: stored, To: stored + 1, Stored: stored, Declared: declared}
		}
		fail := func(err error) error {
			return &MigrationError{Kind: "kv_migration_failed", From: stored, To: stored + 1, Stored: stored, Declared: declared, Reason: reasonOf(err), Err: err}
		}
		tx := &MigrationTx{e: e}
		if err := fn(ctx, tx); err != nil {
			return fail(err)
		}
		next, _ := json.Marshal(stored + 1)
		writes := append(tx.writes, protocol.KVWrite{KVPut: &protocol.KVPut{Op: "put", Namespace: e.ownNamespace(), Key: KVVersionKey, Value: next}})
		if len(writes) > protocol.KVMaxBatch {
			return fail(fmt.Errorf("the step stages %d writes; one kv.commit holds %d with the version", len(tx.writes), protocol.KVMaxBatch-1))
		}
		_, err = e.KV.Commit(ctx, writes, KVCommitOptions{Preconditions: []protocol.KVPrecondition{pre}})
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) && rpc.Code == protocol.CodeKVConflict {
			if conflicts >= maxMigrationConflicts {
				return fail(errors.New("the stored version kept changing"))
			}
			conflicts++
			// Another generation moved the version first: re-read and go on from there.
			e.log.Info("kv migration raced; re-reading the stored version", "from", stored)
			continue
		}
		if err != nil {
			return fail(err)
		}
		e.log.Info("kv migrated", "from", stored, "to", stored+1)
	}
}

// reasonOf words a failure as the three SDKs do: a host error as "host error <code>:
// <message>", anything else by its own message.
func reasonOf(err error) string {
	if rpc, ok := err.(*jsonrpc.Error); ok {
		return fmt.Sprintf("host error %d: %s", rpc.Code, rpc.Message)
	}
	return err.Error()
}
