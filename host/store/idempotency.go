package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"
)

// Claim is what ClaimKey found under (extension, key): a recorded result, the key now held
// by the caller (Token set: it runs the call), or another call holding it (Holder).
type Claim struct {
	Recorded bool
	Result   []byte
	Token    string
	Digest   string // of the recorded call, or of the call holding the key
	Holder   string // the process holding the key, when busy
}

// idemNow is the clock of the claim leases; an internal test moves it past a lease.
var idemNow = time.Now

// ClaimKey takes the idempotency key (extension, key) for the call with digest, in one
// IMMEDIATE transaction, so of two first calls (in one host or in two host processes on this
// state directory) exactly one gets the key and runs. A recorded result is returned as is;
// a claim whose lease ran out, or whose holder process is gone (this machine, same boot,
// pid and start time no longer alive), is taken over: a crashed claimant never blocks the
// key beyond its lease. The caller compares digests (a different call is a conflict).
func (s *Store) ClaimKey(ctx context.Context, extension, key, digest string, lease time.Duration) (Claim, error) {
	var out Claim
	err := s.tx(ctx, func(tx *sql.Tx) error {
		out = Claim{}
		err := tx.QueryRowContext(ctx, `SELECT digest, result FROM idempotent_results WHERE extension = ? AND key = ?`, extension, key).Scan(&out.Digest, &out.Result)
		if err == nil {
			out.Recorded = true
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		now := idemNow().UnixMilli()
		var holder string
		var expires int64
		err = tx.QueryRowContext(ctx, `SELECT digest, holder, expires_at_ms FROM idempotent_claims WHERE extension = ? AND key = ?`, extension, key).Scan(&out.Digest, &holder, &expires)
		switch {
		case err == nil && expires > now && !holderGone(holder):
			out.Holder = holder
			return nil
		case err == nil: // expired or its process is gone: take it over
			if _, err := tx.ExecContext(ctx, `DELETE FROM idempotent_claims WHERE extension = ? AND key = ?`, extension, key); err != nil {
				return err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		var b [16]byte
		rand.Read(b[:])
		out = Claim{Token: hex.EncodeToString(b[:]), Digest: digest}
		_, err = tx.ExecContext(ctx, `INSERT INTO idempotent_claims (extension, key, digest, token, holder, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?)`,
			extension, key, digest, out.Token, holderSelf, now+lease.Milliseconds())
		return err
	})
	if err != nil {
		return Claim{}, fmt.Errorf("store: idempotency claim: %w", err)
	}
	return out, nil
}

// RenewClaim extends the lease of the claim token holds; false when the claim is no longer
// token's (it expired and another call took it over).
func (s *Store) RenewClaim(ctx context.Context, extension, key, token string, lease time.Duration) (bool, error) {
	res, err := s.db.ExecContext(ctx, `UPDATE idempotent_claims SET expires_at_ms = ? WHERE extension = ? AND key = ? AND token = ?`,
		idemNow().UnixMilli()+lease.Milliseconds(), extension, key, token)
	if err != nil {
		return false, fmt.Errorf("store: idempotency renew: %w", err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// CompleteClaim records result under (extension, key) and ends token's claim, in one
// transaction: a waiter sees the claim and the result never both missing. A key recorded
// already keeps its first result.
func (s *Store) CompleteClaim(ctx context.Context, extension, key, token, digest string, result []byte) error {
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO idempotent_results (extension, key, digest, result, created_at_ms) VALUES (?, ?, ?, ?, ?)`,
			extension, key, digest, result, idemNow().UnixMilli()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM idempotent_claims WHERE extension = ? AND key = ? AND token = ?`, extension, key, token)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: idempotency record: %w", err)
	}
	return nil
}

// ReleaseClaim ends token's claim without a result (the call failed): the next call with
// the key runs.
func (s *Store) ReleaseClaim(ctx context.Context, extension, key, token string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM idempotent_claims WHERE extension = ? AND key = ? AND token = ?`, extension, key, token); err != nil {
		return fmt.Errorf("store: idempotency release: %w", err)
	}
	return nil
}
