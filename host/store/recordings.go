package store

import (
	"context"
	"fmt"
)

// Recording is one recorded session (one extension process generation's
// conversation with the host).
type Recording struct {
	SessionID   string
	Extension   string
	StartedAtMS int64
	Frames      int64
}

// Frame is one recorded JSON line.
type Frame struct {
	Seq       int64
	AtMS      int64
	Direction string // "host->ext" or "ext->host"
	Frame     []byte
}

// StartRecording creates a recording; an existing id is kept as is.
func (s *Store) StartRecording(ctx context.Context, sessionID, extension string, atMS int64) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO recordings (session_id, extension, started_at_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, sessionID, extension, atMS)
	if err != nil {
		return fmt.Errorf("store: start recording %s: %w", sessionID, err)
	}
	return nil
}

// AppendFrames stores frames of a recording in one transaction (the
// recorder batches them so recording does not cost a commit per line).
func (s *Store) AppendFrames(ctx context.Context, sessionID string, frames []Frame) error {
	if len(frames) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: append frames: %w", err)
	}
	stmt, err := tx.PrepareContext(ctx, insertFrame)
	if err != nil {
		tx.Rollback()
		return fmt.Errorf("store: append frames: %w", err)
	}
	defer stmt.Close()
	for _, f := range frames {
		if _, err := stmt.ExecContext(ctx, sessionID, f.Seq, f.AtMS, f.Direction, f.Frame); err != nil {
			tx.Rollback()
			return fmt.Errorf("store: append frame %d of %s: %w", f.Seq, sessionID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: append frames: %w", err)
	}
	return nil
}

const insertFrame = `INSERT INTO frames (session_id, seq, at_ms, direction, frame) VALUES (?, ?, ?, ?, ?)`

// QueueFrames queues frames of a recording for the next group commit (appendlog.go says
// what a kill can lose); it never waits for the database, only for room in the queue.
func (s *Store) QueueFrames(sessionID string, frames ...Frame) error {
	rows := make([]row, len(frames))
	for i, f := range frames {
		rows[i] = row{frame: &frameRow{sessionID: sessionID, Frame: f}}
	}
	if err := s.log.append(rows...); err != nil {
		return fmt.Errorf("store: append frames of %s: %w", sessionID, err)
	}
	return nil
}

// Recordings lists recorded sessions, newest first, after flushing the rows queued so far.
func (s *Store) Recordings(ctx context.Context) ([]Recording, error) {
	if err := s.Flush(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT r.session_id, r.extension, r.started_at_ms,
		(SELECT count(*) FROM frames f WHERE f.session_id = r.session_id)
		FROM recordings r ORDER BY r.started_at_ms DESC, r.session_id`)
	if err != nil {
		return nil, fmt.Errorf("store: recordings: %w", err)
	}
	defer rows.Close()
	var out []Recording
	for rows.Next() {
		var r Recording
		if err := rows.Scan(&r.SessionID, &r.Extension, &r.StartedAtMS, &r.Frames); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Frames returns the frames of one recording in order, after flushing the rows queued so
// far; found is false for an unknown session.
func (s *Store) Frames(ctx context.Context, sessionID string) (frames []Frame, found bool, err error) {
	if err := s.Flush(ctx); err != nil {
		return nil, false, err
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM recordings WHERE session_id = ?`, sessionID).Scan(&n); err != nil {
		return nil, false, fmt.Errorf("store: recording %s: %w", sessionID, err)
	}
	if n == 0 {
		return nil, false, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, at_ms, direction, frame FROM frames WHERE session_id = ? ORDER BY seq`, sessionID)
	if err != nil {
		return nil, false, fmt.Errorf("store: frames of %s: %w", sessionID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var f Frame
		if err := rows.Scan(&f.Seq, &f.AtMS, &f.Direction, &f.Frame); err != nil {
			return nil, false, err
		}
		frames = append(frames, f)
	}
	return frames, true, rows.Err()
}
