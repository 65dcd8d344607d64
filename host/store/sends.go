package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Sends and their receipts (host/delivery.go): each tool call, command and hook run the
// host delivers to an extension is a row of sends, written before the request is, with its
// original input (secrets redacted); its final receipt is a row of receipts, written before
// the caller sees the answer. A send without a receipt is one the host did not live to see
// settled. A recovery replays a send as a new send whose recovery_of names the original;
// the replay's receipt is then the original's recovery receipt.
const sendsMigration = `
CREATE TABLE sends (
	id             INTEGER PRIMARY KEY,
	session_id     TEXT NOT NULL,
	extension      TEXT NOT NULL,
	identity       TEXT NOT NULL,     -- name@install root: recovery replays to this extension only
	dir            TEXT NOT NULL,     -- where recovery starts it
	instance_id    TEXT NOT NULL,
	generation     INTEGER NOT NULL,
	method         TEXT NOT NULL,     -- tool/call, command/execute, hook/run
	name           TEXT NOT NULL,     -- the tool, command or hook
	input          BLOB NOT NULL,     -- the params as written, brokered secrets redacted
	input_sha256   TEXT NOT NULL,     -- of input as stored
	input_redacted INTEGER NOT NULL,  -- 1: input held a secret, so it cannot be replayed
	recovery_of    INTEGER REFERENCES sends (id),
	sent_at_ms     INTEGER NOT NULL
);
CREATE INDEX sends_recovery_of ON sends (recovery_of);

CREATE TABLE receipts (
	send_id        INTEGER PRIMARY KEY REFERENCES sends (id),
	outcome        TEXT NOT NULL,     -- completed, error, timeout, disconnected, cancelled, failed
	error_code     INTEGER,           -- the error answer's code
	detail         TEXT NOT NULL,     -- why, for an outcome other than completed (redacted)
	request_id     TEXT NOT NULL,     -- the JSON-RPC id written ('' when never written)
	input_sha256   TEXT NOT NULL,
	result_sha256  TEXT NOT NULL,     -- of the result as answered, redacted ('' without one)
	stream_events  INTEGER NOT NULL,  -- progress events accepted before the answer
	duration_ms    INTEGER NOT NULL,
	settled_at_ms  INTEGER NOT NULL
) WITHOUT ROWID;
`

// SendRow is one recorded send.
type SendRow struct {
	ID            int64
	SessionID     string
	Extension     string
	Identity      string
	Dir           string
	InstanceID    string
	Generation    int64
	Method        string
	Name          string
	Input         []byte
	InputSHA256   string
	InputRedacted bool
	RecoveryOf    int64 // 0: an original send
	SentAtMS      int64
}

// ReceiptRow is the final receipt of a send.
type ReceiptRow struct {
	SendID       int64
	Outcome      string
	ErrorCode    *int64
	Detail       string
	RequestID    string
	InputSHA256  string
	ResultSHA256 string
	StreamEvents int64
	DurationMS   int64
	SettledAtMS  int64
}

// RecordSend persists a send and returns its id; it waits for the commit, so a host killed
// after it returns still has the send.
func (s *Store) RecordSend(ctx context.Context, r SendRow) (int64, error) {
	var recov any
	if r.RecoveryOf != 0 {
		recov = r.RecoveryOf
	}
	res, err := s.db.ExecContext(ctx, `INSERT INTO sends (session_id, extension, identity, dir, instance_id, generation, method, name, input, input_sha256, input_redacted, recovery_of, sent_at_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.SessionID, r.Extension, r.Identity, r.Dir, r.InstanceID, r.Generation, r.Method, r.Name, r.Input, r.InputSHA256, r.InputRedacted, recov, r.SentAtMS)
	if err != nil {
		return 0, fmt.Errorf("store: record send %s %s: %w", r.Method, r.Name, err)
	}
	return res.LastInsertId()
}

// RecordReceipt records a send's final receipt; a send has one, the first recorded.
func (s *Store) RecordReceipt(ctx context.Context, r ReceiptRow) error {
	_, err := s.db.ExecContext(ctx, `INSERT OR IGNORE INTO receipts (send_id, outcome, error_code, detail, request_id, input_sha256, result_sha256, stream_events, duration_ms, settled_at_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.SendID, r.Outcome, r.ErrorCode, r.Detail, r.RequestID, r.InputSHA256, r.ResultSHA256, r.StreamEvents, r.DurationMS, r.SettledAtMS)
	if err != nil {
		return fmt.Errorf("store: record receipt of send %d: %w", r.SendID, err)
	}
	return nil
}

const sendColumns = `s.id, s.session_id, s.extension, s.identity, s.dir, s.instance_id, s.generation, s.method, s.name, s.input, s.input_sha256, s.input_redacted, COALESCE(s.recovery_of, 0), s.sent_at_ms`

func scanSends(rows *sql.Rows) ([]SendRow, error) {
	defer rows.Close()
	var out []SendRow
	for rows.Next() {
		var r SendRow
		if err := rows.Scan(&r.ID, &r.SessionID, &r.Extension, &r.Identity, &r.Dir, &r.InstanceID, &r.Generation, &r.Method, &r.Name,
			&r.Input, &r.InputSHA256, &r.InputRedacted, &r.RecoveryOf, &r.SentAtMS); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Unsettled lists the original sends that have no final receipt and no recovery receipt
// yet, oldest first: what the operator's recovery replays by default.
func (s *Store) Unsettled(ctx context.Context) ([]SendRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sendColumns+` FROM sends s
		WHERE s.recovery_of IS NULL
		AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.send_id = s.id)
		AND NOT EXISTS (SELECT 1 FROM sends x JOIN receipts r ON r.send_id = x.id WHERE x.recovery_of = s.id)
		ORDER BY s.id`)
	if err != nil {
		return nil, fmt.Errorf("store: unsettled sends: %w", err)
	}
	return scanSends(rows)
}

// Send returns the send with id.
func (s *Store) Send(ctx context.Context, id int64) (SendRow, bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sendColumns+` FROM sends s WHERE s.id = ?`, id)
	if err != nil {
		return SendRow{}, false, fmt.Errorf("store: send %d: %w", id, err)
	}
	out, err := scanSends(rows)
	if err != nil || len(out) == 0 {
		return SendRow{}, false, err
	}
	return out[0], true, nil
}

// Sends lists every send, oldest first (inspection and tests).
func (s *Store) Sends(ctx context.Context) ([]SendRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sendColumns+` FROM sends s ORDER BY s.id`)
	if err != nil {
		return nil, fmt.Errorf("store: sends: %w", err)
	}
	return scanSends(rows)
}

// Receipt returns the final receipt of send id, or found false while it has none.
func (s *Store) Receipt(ctx context.Context, id int64) (ReceiptRow, bool, error) {
	var r ReceiptRow
	err := s.db.QueryRowContext(ctx, `SELECT send_id, outcome, error_code, detail, request_id, input_sha256, result_sha256, stream_events, duration_ms, settled_at_ms
		FROM receipts WHERE send_id = ?`, id).Scan(&r.SendID, &r.Outcome, &r.ErrorCode, &r.Detail, &r.RequestID, &r.InputSHA256, &r.ResultSHA256, &r.StreamEvents, &r.DurationMS, &r.SettledAtMS)
	if errors.Is(err, sql.ErrNoRows) {
		return ReceiptRow{}, false, nil
	}
	if err != nil {
		return ReceiptRow{}, false, fmt.Errorf("store: receipt of send %d: %w", id, err)
	}
	return r, true, nil
}

// Recoveries lists the replays of send id, oldest first.
func (s *Store) Recoveries(ctx context.Context, id int64) ([]SendRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+sendColumns+` FROM sends s WHERE s.recovery_of = ? ORDER BY s.id`, id)
	if err != nil {
		return nil, fmt.Errorf("store: recoveries of send %d: %w", id, err)
	}
	return scanSends(rows)
}
