package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// LookupResult returns the call digest and tool result recorded under (extension, key)
// (host.IdempotencyStore).
func (s *Store) LookupResult(ctx context.Context, extension, key string) (string, []byte, bool, error) {
	var digest string
	var result []byte
	err := s.db.QueryRowContext(ctx, `SELECT digest, result FROM idempotent_results WHERE extension = ? AND key = ?`, extension, key).Scan(&digest, &result)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, false, nil
	}
	if err != nil {
		return "", nil, false, fmt.Errorf("store: idempotency lookup: %w", err)
	}
	return digest, result, true, nil
}

// RecordResult records a tool result under (extension, key); a key already recorded keeps
// its first result (two concurrent first calls both run, the first to commit wins).
func (s *Store) RecordResult(ctx context.Context, extension, key, digest string, result []byte) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO idempotent_results (extension, key, digest, result, created_at_ms) VALUES (?, ?, ?, ?, ?)`,
		extension, key, digest, result, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("store: idempotency record: %w", err)
	}
	return nil
}
