package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// KV identity. A KV row belongs to a trusted identity (the extension's name plus its
// install root: "name@/abs/dir"), not to the bare manifest name, so a second extension
// directory that declares the same name gets namespaces of its own and never reads the
// first one's data.
//
// Stores written before identities existed hold rows with no owner (""). The first
// identity of a name to use KV claims that name's legacy rows (its namespace and every
// "name.<suffix>"), once, in one transaction with the claim record: that is the extension
// that wrote them in every store where one directory used the name. A later identity of
// the same name finds the claim taken and starts empty. kv_claims records who claimed what
// and when, so an operator can see (and, by editing the store, undo) a claim.
const kvOwnerMigration = `
CREATE TABLE kv_owned (
	owner     TEXT NOT NULL,   -- trusted identity: name@install-root; '' for rows written before identities
	namespace TEXT NOT NULL,
	key       TEXT NOT NULL,
	value     BLOB NOT NULL,   -- canonical JSON
	version   TEXT NOT NULL,   -- sha256 hex of value
	PRIMARY KEY (owner, namespace, key)
) WITHOUT ROWID;
INSERT INTO kv_owned (owner, namespace, key, value, version) SELECT '', namespace, key, value, version FROM kv;
DROP TABLE kv;
ALTER TABLE kv_owned RENAME TO kv;

CREATE TABLE kv_claims (
	name          TEXT PRIMARY KEY,  -- manifest name whose legacy rows were claimed
	identity      TEXT NOT NULL,     -- the identity that claimed them
	claimed_at_ms INTEGER NOT NULL
);
`

// KVClaim settles name's legacy rows for identity: when no identity has claimed name yet,
// identity claims it and the unowned rows of name's namespaces become its own. It is
// idempotent and cheap after the first call per identity (remembered in memory). It
// returns the identity that holds the claim (identity itself, or the earlier claimant).
func (s *Store) KVClaim(ctx context.Context, name, identity string) (string, error) {
	if v, ok := s.claimed.Load(identity); ok {
		return v.(string), nil
	}
	holder := identity
	err := s.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT identity FROM kv_claims WHERE name = ?`, name).Scan(&holder)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: kv claim %s: %w", name, err)
		}
		holder = identity
		if _, err := tx.ExecContext(ctx, `INSERT INTO kv_claims (name, identity, claimed_at_ms) VALUES (?, ?, ?)`,
			name, identity, time.Now().UnixMilli()); err != nil {
			return fmt.Errorf("store: kv claim %s: %w", name, err)
		}
		// name's own namespace and name.<suffix>; compared as bytes so no LIKE wildcard in
		// a name can widen it.
		if _, err := tx.ExecContext(ctx, `UPDATE kv SET owner = ? WHERE owner = '' AND (namespace = ?
			OR substr(CAST(namespace AS BLOB), 1, length(CAST(? AS BLOB)) + 1) = CAST(? || '.' AS BLOB))`,
			identity, name, name, name); err != nil {
			return fmt.Errorf("store: kv claim %s: move legacy rows: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	s.claimed.Store(identity, holder)
	return holder, nil
}

// KVForget deletes every KV row of identity and its claim (the extension is uninstalled),
// and returns how many rows went.
func (s *Store) KVForget(ctx context.Context, identity string) (int64, error) {
	var n int64
	err := s.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM kv WHERE owner = ?`, identity)
		if err != nil {
			return fmt.Errorf("store: kv forget: %w", err)
		}
		n, _ = res.RowsAffected()
		if _, err := tx.ExecContext(ctx, `DELETE FROM kv_claims WHERE identity = ?`, identity); err != nil {
			return fmt.Errorf("store: kv forget claim: %w", err)
		}
		return nil
	})
	s.claimed.Delete(identity)
	return n, err
}
