package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// CallRecord is one served or issued call: timing and outcome, never params
// (they may carry secrets or user text).
type CallRecord struct {
	Extension   string
	InstanceID  string
	Generation  int64
	Direction   string // "in": extension->host, "out": host->extension
	Method      string
	StartedAtMS int64
	DurationMS  int64
	ErrorCode   *int64
}

const insertCall = `INSERT INTO calls (extension, instance_id, generation, direction, method, started_at_ms, duration_ms, error_code)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?)`

// RecordCall appends a call record and waits for its commit.
func (s *Store) RecordCall(ctx context.Context, c CallRecord) error {
	_, err := s.db.ExecContext(ctx, insertCall, c.Extension, c.InstanceID, c.Generation, c.Direction, c.Method, c.StartedAtMS, c.DurationMS, c.ErrorCode)
	if err != nil {
		return fmt.Errorf("store: record call %s: %w", c.Method, err)
	}
	return nil
}

// AppendCall queues a call record for the next group commit (appendlog.go says what a
// kill can lose); it never waits for the database, only for room in the queue.
func (s *Store) AppendCall(c CallRecord) error {
	if err := s.log.append(row{call: &c}); err != nil {
		return fmt.Errorf("store: record call %s: %w", c.Method, err)
	}
	return nil
}

// Calls lists the call records of an extension, oldest first, after flushing the rows
// queued so far.
func (s *Store) Calls(ctx context.Context, extension string) ([]CallRecord, error) {
	if err := s.Flush(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT extension, instance_id, generation, direction, method, started_at_ms, duration_ms, error_code
		FROM calls WHERE extension = ? ORDER BY id`, extension)
	if err != nil {
		return nil, fmt.Errorf("store: calls of %s: %w", extension, err)
	}
	defer rows.Close()
	var out []CallRecord
	for rows.Next() {
		var c CallRecord
		if err := rows.Scan(&c.Extension, &c.InstanceID, &c.Generation, &c.Direction, &c.Method, &c.StartedAtMS, &c.DurationMS, &c.ErrorCode); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// AgentRow is one child-session record, scoped to principal and durable
// owner (session and instance, not generation: restarts resume trees).
type AgentRow struct {
	AgentID        string
	Principal      string
	SessionID      string
	InstanceID     string
	IdempotencyKey string
	InputDigest    string
	Record         json.RawMessage
	Seq            int64
}

// PutAgent inserts or replaces a child-session record.
func (s *Store) PutAgent(ctx context.Context, a AgentRow) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO agents (agent_id, principal, session_id, instance_id, idempotency_key, input_digest, record, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (agent_id) DO UPDATE SET record = excluded.record`,
		a.AgentID, a.Principal, a.SessionID, a.InstanceID, a.IdempotencyKey, a.InputDigest, a.Record, a.Seq)
	if err != nil {
		return fmt.Errorf("store: record agent %s: %w", a.AgentID, err)
	}
	return nil
}

// DeleteAgent removes a retained child record (pruning beyond the bound).
func (s *Store) DeleteAgent(ctx context.Context, agentID string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM agents WHERE agent_id = ?`, agentID)
	if err != nil {
		return fmt.Errorf("store: delete agent %s: %w", agentID, err)
	}
	return nil
}

// Agents lists the records of one principal and owner, oldest first.
func (s *Store) Agents(ctx context.Context, principal, sessionID, instanceID string) ([]AgentRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT agent_id, principal, session_id, instance_id, idempotency_key, input_digest, record, seq
		FROM agents WHERE principal = ? AND session_id = ? AND instance_id = ? ORDER BY seq`, principal, sessionID, instanceID)
	if err != nil {
		return nil, fmt.Errorf("store: agents: %w", err)
	}
	defer rows.Close()
	var out []AgentRow
	for rows.Next() {
		var a AgentRow
		if err := rows.Scan(&a.AgentID, &a.Principal, &a.SessionID, &a.InstanceID, &a.IdempotencyKey, &a.InputDigest, &a.Record, &a.Seq); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AgentsOfInstance lists the records of one principal across every session
// of one instance, oldest first (explicit shutdown stops them all).
func (s *Store) AgentsOfInstance(ctx context.Context, principal, instanceID string) ([]AgentRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT agent_id, principal, session_id, instance_id, idempotency_key, input_digest, record, seq
		FROM agents WHERE principal = ? AND instance_id = ? ORDER BY seq`, principal, instanceID)
	if err != nil {
		return nil, fmt.Errorf("store: agents: %w", err)
	}
	defer rows.Close()
	var out []AgentRow
	for rows.Next() {
		var a AgentRow
		if err := rows.Scan(&a.AgentID, &a.Principal, &a.SessionID, &a.InstanceID, &a.IdempotencyKey, &a.InputDigest, &a.Record, &a.Seq); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// PutApproval stores a one-use approval: the SHA-256 of its token (never the
// token), the digest of what it is bound to, and its expiry.
func (s *Store) PutApproval(ctx context.Context, tokenSHA256, binding string, expiresAtMS int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO approvals (token_sha256, binding, expires_at_ms) VALUES (?, ?, ?)`, tokenSHA256, binding, expiresAtMS)
	if err != nil {
		return fmt.Errorf("store: record approval: %w", err)
	}
	return nil
}

// RedeemApproval consumes the approval with this token digest, whatever the
// outcome (a presented live token is invalidated even on mismatch), and
// reports whether it was bound to binding and unexpired at nowMS. Expired
// approvals are swept in the same transaction.
func (s *Store) RedeemApproval(ctx context.Context, tokenSHA256, binding string, nowMS int64) (bool, error) {
	ok := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var b string
		var exp int64
		err := tx.QueryRowContext(ctx, `SELECT binding, expires_at_ms FROM approvals WHERE token_sha256 = ?`, tokenSHA256).Scan(&b, &exp)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: read approval: %w", err)
		}
		if err == nil {
			ok = b == binding && nowMS < exp
			if _, err := tx.ExecContext(ctx, `DELETE FROM approvals WHERE token_sha256 = ?`, tokenSHA256); err != nil {
				return fmt.Errorf("store: consume approval: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM approvals WHERE expires_at_ms <= ?`, nowMS); err != nil {
			return fmt.Errorf("store: sweep approvals: %w", err)
		}
		return nil
	})
	return ok, err
}
