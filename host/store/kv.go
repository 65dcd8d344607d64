package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// KVEntry is one stored key.
type KVEntry struct {
	Namespace string
	Key       string
	Value     json.RawMessage // canonical JSON
	Version   string          // sha256 hex of Value
}

// KVPrecondition must hold for a commit to apply: the key's current version
// equals Version, or (Absent) the key does not exist.
type KVPrecondition struct {
	Owner          string // the trusted identity (kvowner.go); "" is the unclaimed legacy space
	Namespace, Key string
	Version        string
	Absent         bool
}

// KVWrite is one put (Value set) or delete (Delete true).
type KVWrite struct {
	Owner          string // as KVPrecondition.Owner
	Namespace, Key string
	Delete         bool
	Value          json.RawMessage
	// Canonical says Value is already in Canonical form (the caller
	// canonicalised it to check its size), so KVCommit need not redo it.
	Canonical bool
}

// KVConflict is the error KVCommit returns when a precondition fails.
// Expected/Actual are versions; nil means "absent".
type KVConflict struct {
	Namespace, Key   string
	Expected, Actual *string
}

// Error names the key and both versions (never a value).
func (c *KVConflict) Error() string {
	show := func(p *string) string {
		if p == nil {
			return "absent"
		}
		return "version " + *p
	}
	return fmt.Sprintf("kv precondition failed for %s/%s: expected %s, found %s", c.Namespace, c.Key, show(c.Expected), show(c.Actual))
}

// KVGet reads one key of the unowned space; found is false when it does not exist.
func (s *Store) KVGet(ctx context.Context, namespace, key string) (e KVEntry, found bool, err error) {
	return s.KVGetOf(ctx, "", namespace, key)
}

// KVGetOf reads one key of owner's namespace; found is false when it does not exist.
func (s *Store) KVGetOf(ctx context.Context, owner, namespace, key string) (e KVEntry, found bool, err error) {
	e = KVEntry{Namespace: namespace, Key: key}
	err = s.db.QueryRowContext(ctx, `SELECT value, version FROM kv WHERE owner = ? AND namespace = ? AND key = ?`, owner, namespace, key).Scan(&e.Value, &e.Version)
	if errors.Is(err, sql.ErrNoRows) {
		return KVEntry{}, false, nil
	}
	if err != nil {
		return KVEntry{}, false, fmt.Errorf("store: kv get %s/%s: %w", namespace, key, err)
	}
	return e, true, nil
}

// KVList returns up to limit entries of namespace whose key starts with
// prefix and sorts after `after` (byte order), plus whether more follow.
func (s *Store) KVList(ctx context.Context, namespace, prefix, after string, limit int) ([]KVEntry, bool, error) {
	return s.KVListOf(ctx, "", namespace, prefix, after, limit)
}

// KVListOf is KVList in owner's namespaces.
func (s *Store) KVListOf(ctx context.Context, owner, namespace, prefix, after string, limit int) ([]KVEntry, bool, error) {
	// Keys are compared as BLOBs so ordering and the prefix test are by
	// UTF-8 bytes, matching the cursor.
	rows, err := s.db.QueryContext(ctx, `SELECT key, value, version FROM kv
		WHERE owner = ? AND namespace = ? AND CAST(key AS BLOB) > CAST(? AS BLOB)
		  AND substr(CAST(key AS BLOB), 1, length(CAST(? AS BLOB))) = CAST(? AS BLOB)
		ORDER BY CAST(key AS BLOB) LIMIT ?`, owner, namespace, after, prefix, prefix, limit+1)
	if err != nil {
		return nil, false, fmt.Errorf("store: kv list %s prefix %q: %w", namespace, prefix, err)
	}
	defer rows.Close()
	out := []KVEntry{}
	for rows.Next() {
		e := KVEntry{Namespace: namespace}
		if err := rows.Scan(&e.Key, &e.Value, &e.Version); err != nil {
			return nil, false, fmt.Errorf("store: kv list %s: %w", namespace, err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, false, fmt.Errorf("store: kv list %s: %w", namespace, err)
	}
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// KVCommit checks every precondition and applies every write in one
// transaction: all of it or nothing. Values are canonicalised here, so the
// returned versions (one per write; nil for deletes) are digests of the
// canonical bytes. A failed precondition returns *KVConflict.
func (s *Store) KVCommit(ctx context.Context, pre []KVPrecondition, writes []KVWrite) ([]*string, error) {
	canon := make([][]byte, len(writes))
	for i, w := range writes {
		if w.Delete {
			continue
		}
		if w.Canonical {
			canon[i] = w.Value
			continue
		}
		c, err := Canonical(w.Value)
		if err != nil {
			return nil, fmt.Errorf("writes[%d].value: %w", i, err)
		}
		canon[i] = c
	}
	versions := make([]*string, len(writes))
	err := s.tx(ctx, func(tx *sql.Tx) error {
		// Statements are prepared once per batch: parsing SQL dominated
		// large batches otherwise.
		sel, err := tx.PrepareContext(ctx, `SELECT version FROM kv WHERE owner = ? AND namespace = ? AND key = ?`)
		if err != nil {
			return fmt.Errorf("store: kv prepare: %w", err)
		}
		defer sel.Close()
		del, err := tx.PrepareContext(ctx, `DELETE FROM kv WHERE owner = ? AND namespace = ? AND key = ?`)
		if err != nil {
			return fmt.Errorf("store: kv prepare: %w", err)
		}
		defer del.Close()
		put, err := tx.PrepareContext(ctx, `INSERT INTO kv (owner, namespace, key, value, version) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (owner, namespace, key) DO UPDATE SET value = excluded.value, version = excluded.version`)
		if err != nil {
			return fmt.Errorf("store: kv prepare: %w", err)
		}
		defer put.Close()
		for _, p := range pre {
			var actual *string
			var v string
			err := sel.QueryRowContext(ctx, p.Owner, p.Namespace, p.Key).Scan(&v)
			switch {
			case errors.Is(err, sql.ErrNoRows):
			case err != nil:
				return fmt.Errorf("store: kv precondition %s/%s: %w", p.Namespace, p.Key, err)
			default:
				actual = &v
			}
			var expected *string
			if !p.Absent {
				e := p.Version
				expected = &e
			}
			if (expected == nil) != (actual == nil) || (expected != nil && *expected != *actual) {
				return &KVConflict{Namespace: p.Namespace, Key: p.Key, Expected: expected, Actual: actual}
			}
		}
		for i, w := range writes {
			if w.Delete {
				if _, err := del.ExecContext(ctx, w.Owner, w.Namespace, w.Key); err != nil {
					return fmt.Errorf("store: kv delete %s/%s: %w", w.Namespace, w.Key, err)
				}
				continue
			}
			v := Digest(canon[i])
			if _, err := put.ExecContext(ctx, w.Owner, w.Namespace, w.Key, canon[i], v); err != nil {
				return fmt.Errorf("store: kv put %s/%s: %w", w.Namespace, w.Key, err)
			}
			versions[i] = &v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return versions, nil
}
