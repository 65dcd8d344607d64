package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are applied in order; index i+1 is the schema version after
// migration i. Never edit a released entry: append a new one.
var migrations = []string{
	// 1: the initial schema.
	`
CREATE TABLE kv (
	namespace TEXT NOT NULL,
	key       TEXT NOT NULL,
	value     BLOB NOT NULL,   -- canonical JSON
	version   TEXT NOT NULL,   -- sha256 hex of value
	PRIMARY KEY (namespace, key)
) WITHOUT ROWID;

CREATE TABLE artifacts (
	id            TEXT PRIMARY KEY,
	extension     TEXT NOT NULL,
	principal     TEXT NOT NULL,
	session_id    TEXT NOT NULL,
	instance_id   TEXT NOT NULL,
	generation    INTEGER NOT NULL,
	mime_type     TEXT NOT NULL,
	name          TEXT NOT NULL DEFAULT '',
	size          INTEGER NOT NULL,
	sha256        TEXT NOT NULL,
	created_at_ms INTEGER NOT NULL
);
CREATE INDEX artifacts_generation ON artifacts (instance_id, generation);

CREATE TABLE calls (
	id            INTEGER PRIMARY KEY,
	extension     TEXT NOT NULL,
	instance_id   TEXT NOT NULL,
	generation    INTEGER NOT NULL,
	direction     TEXT NOT NULL,   -- "in" (extension->host) or "out"
	method        TEXT NOT NULL,
	started_at_ms INTEGER NOT NULL,
	duration_ms   INTEGER NOT NULL,
	error_code    INTEGER          -- NULL on success
);

CREATE TABLE agents (
	agent_id        TEXT PRIMARY KEY,
	principal       TEXT NOT NULL,
	session_id      TEXT NOT NULL,
	instance_id     TEXT NOT NULL,
	idempotency_key TEXT NOT NULL,
	input_digest    TEXT NOT NULL,
	record          BLOB NOT NULL,  -- AgentRecord JSON
	seq             INTEGER NOT NULL,
	UNIQUE (principal, session_id, instance_id, idempotency_key)
);

CREATE TABLE approvals (
	token_sha256  TEXT PRIMARY KEY, -- the token itself is never stored
	binding       TEXT NOT NULL,    -- sha256 of canonical intent+owner+parent+generation
	expires_at_ms INTEGER NOT NULL
);

CREATE TABLE events (
	id         INTEGER PRIMARY KEY,
	at_ms      INTEGER NOT NULL,
	kind       TEXT NOT NULL,
	extension  TEXT NOT NULL,
	payload    BLOB NOT NULL
);

CREATE TABLE recordings (
	session_id    TEXT PRIMARY KEY,
	extension     TEXT NOT NULL,
	started_at_ms INTEGER NOT NULL
);

CREATE TABLE frames (
	session_id TEXT NOT NULL REFERENCES recordings (session_id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	at_ms      INTEGER NOT NULL,
	direction  TEXT NOT NULL,      -- "host->ext" or "ext->host"
	frame      BLOB NOT NULL,      -- the JSON line, secrets redacted
	PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;
`,
	// 2: KV rows belong to a trusted identity, not a bare name (kvowner.go).
	kvOwnerMigration,
	// 3: tool results recorded under callers' idempotency keys (idempotency.go).
	`
CREATE TABLE idempotent_results (
	extension     TEXT NOT NULL,
	key           TEXT NOT NULL,
	digest        TEXT NOT NULL,   -- sha256 hex of the tool name and canonical arguments
	result        BLOB NOT NULL,   -- the tool result JSON the host accepted
	created_at_ms INTEGER NOT NULL,
	PRIMARY KEY (extension, key)
) WITHOUT ROWID;
`,
	// 4: the claim a first call takes on its idempotency key before it runs, so a
	// concurrent first call with the same key waits instead of running too (idempotency.go).
	`
CREATE TABLE idempotent_claims (
	extension     TEXT NOT NULL,
	key           TEXT NOT NULL,
	digest        TEXT NOT NULL,   -- the claiming call's digest (a different call conflicts)
	token         TEXT NOT NULL,   -- random per claim: only its holder renews or ends it
	holder        TEXT NOT NULL,   -- boot id, pid and start time of the claiming process
	expires_at_ms INTEGER NOT NULL, -- the lease: renewed while the call runs
	PRIMARY KEY (extension, key)
) WITHOUT ROWID;
`,
	// 5: sends with their original input and final receipts, for recovery (sends.go).
	sendsMigration,
	// 6: confirmations and input requests put to a person, durable across a host crash
	// (interactions.go).
	interactionsMigration,
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int { return len(migrations) }

// migrate applies every migration above the recorded user_version, each in
// its own transaction together with the version bump, so a crash leaves the
// database at a whole version.
func (s *Store) migrate(ctx context.Context) error {
	var have int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&have); err != nil {
		return fmt.Errorf("store: read schema version: %w", err)
	}
	if have > len(migrations) {
		return fmt.Errorf("store: database schema version %d is newer than this host's %d; use a newer octet-host or another state dir", have, len(migrations))
	}
	for v := have; v < len(migrations); v++ {
		err := s.tx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("store: migration %d: %w", v+1, err)
			}
			// PRAGMA takes no bind parameters; v is an int we own.
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
				return fmt.Errorf("store: record schema version %d: %w", v+1, err)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
