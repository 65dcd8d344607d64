package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// A confirmation or input request put to a person is an interaction. It is written before
// the question is shown, so a host killed while it waits leaves it pending here; the next
// host on the same state directory lists it and takes its answer. The first answer wins:
// the state moves out of pending exactly once, inside one IMMEDIATE transaction, whichever
// host, console or page answers.
//
// States: pending (asked, no answer), answered (answered after its asker died: the answer
// waits, as a memo, for the next identical question of the same extension), delivered (the
// extension received the answer) and withdrawn (its request ended unanswered, or a secret
// left by a dead host: a secret's value is never written).
const interactionsMigration = `
CREATE TABLE interactions (
	id             TEXT PRIMARY KEY,
	run            TEXT NOT NULL,   -- the asking router's run (one host process)
	identity       TEXT NOT NULL,   -- the extension's trusted identity (name@root)
	extension      TEXT NOT NULL,
	kind           TEXT NOT NULL,   -- "confirm" or "input"
	key            TEXT NOT NULL,   -- sha256 hex of kind and the canonical question
	question       BLOB NOT NULL,   -- the question as JSON (never an answer)
	state          TEXT NOT NULL,   -- pending | answered | delivered | withdrawn
	answer         BLOB,            -- the winning answer as JSON; NULL while pending and for a secret
	asked_at_ms    INTEGER NOT NULL,
	answered_at_ms INTEGER
);
CREATE INDEX interactions_memo ON interactions (identity, kind, key, state);
CREATE INDEX interactions_state ON interactions (state, asked_at_ms);
`

// Interaction states.
const (
	InteractionPending   = "pending"
	InteractionAnswered  = "answered"
	InteractionDelivered = "delivered"
	InteractionWithdrawn = "withdrawn"
)

// Interaction is one row of the interactions table.
type Interaction struct {
	ID        string
	Run       string
	Identity  string
	Extension string
	Kind      string
	Key       string
	Question  []byte
	State     string
	Answer    []byte
	AskedAt   time.Time
}

// Errors of AnswerInteraction; the services layer classifies them.
var (
	// ErrInteractionUnknown: no interaction has this id.
	ErrInteractionUnknown = errors.New("no question with this id")
	// ErrInteractionClosed: the question ended unanswered (withdrawn).
	ErrInteractionClosed = errors.New("the question ended without an answer")
	// ErrInteractionAnswered: the question has a different answer already (first answer wins).
	ErrInteractionAnswered = errors.New("the question was answered already, differently")
)

// AskInteraction records a pending question.
func (s *Store) AskInteraction(ctx context.Context, in Interaction) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO interactions (id, run, identity, extension, kind, key, question, state, asked_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
		in.ID, in.Run, in.Identity, in.Extension, in.Kind, in.Key, in.Question, time.Now().UnixMilli())
	if err != nil {
		return fmt.Errorf("store: record question: %w", err)
	}
	return nil
}

// AnswerInteraction gives question id its answer, once: a pending question takes it
// (state delivered when the asker is alive to hand it on, answered otherwise); a question
// answered already with the same bytes returns them again (idempotent); any other answer
// is ErrInteractionAnswered, and the winning answer is returned beside it so a live asker
// hands the first answer on. answer is compared byte for byte: callers marshal it from a
// fixed struct.
func (s *Store) AnswerInteraction(ctx context.Context, id string, answer []byte, delivered bool) (winner []byte, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var state string
		var have []byte
		err := tx.QueryRowContext(ctx, `SELECT state, answer FROM interactions WHERE id = ?`, id).Scan(&state, &have)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrInteractionUnknown
		case err != nil:
			return fmt.Errorf("store: read question: %w", err)
		}
		switch state {
		case InteractionWithdrawn:
			return ErrInteractionClosed
		case InteractionAnswered, InteractionDelivered:
			winner = have
			if bytes.Equal(have, answer) {
				return nil
			}
			return ErrInteractionAnswered
		}
		next := InteractionAnswered
		if delivered {
			next = InteractionDelivered
		}
		if _, err := tx.ExecContext(ctx, `UPDATE interactions SET state = ?, answer = ?, answered_at_ms = ? WHERE id = ? AND state = 'pending'`,
			next, answer, time.Now().UnixMilli(), id); err != nil {
			return fmt.Errorf("store: answer question: %w", err)
		}
		winner = answer
		return nil
	})
	return winner, err
}

// DeliverInteraction marks a live question delivered without storing its answer (a
// secret, whose value is never written). A question answered already keeps its answer.
func (s *Store) DeliverInteraction(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE interactions SET state = 'delivered', answered_at_ms = ? WHERE id = ? AND state = 'pending'`, time.Now().UnixMilli(), id)
	if err != nil {
		return fmt.Errorf("store: deliver question: %w", err)
	}
	return nil
}

// WithdrawInteraction ends a pending question unanswered. It returns the answer when one
// won meanwhile (answered by another route), so the asker hands that on instead.
func (s *Store) WithdrawInteraction(ctx context.Context, id string) (answer []byte, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var state string
		if err := tx.QueryRowContext(ctx, `SELECT state, answer FROM interactions WHERE id = ?`, id).Scan(&state, &answer); err != nil {
			return fmt.Errorf("store: read question: %w", err)
		}
		if state == InteractionAnswered {
			_, err := tx.ExecContext(ctx, `UPDATE interactions SET state = 'delivered' WHERE id = ?`, id)
			return err
		}
		answer = nil
		_, err := tx.ExecContext(ctx, `UPDATE interactions SET state = 'withdrawn', answered_at_ms = ? WHERE id = ? AND state = 'pending'`, time.Now().UnixMilli(), id)
		return err
	})
	return answer, err
}

// TakeInteractionMemo hands out, once, the oldest answer given to an identical question
// (identity, kind, key) after its asker died: that row becomes delivered and its answer is
// returned. ok false: no such answer waits.
func (s *Store) TakeInteractionMemo(ctx context.Context, identity, kind, key string) (id string, answer []byte, ok bool, err error) {
	err = s.tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT id, answer FROM interactions WHERE identity = ? AND kind = ? AND key = ? AND state = 'answered' ORDER BY asked_at_ms, id LIMIT 1`,
			identity, kind, key).Scan(&id, &answer)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("store: read answered question: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE interactions SET state = 'delivered' WHERE id = ?`, id); err != nil {
			return fmt.Errorf("store: deliver answered question: %w", err)
		}
		ok = true
		return nil
	})
	return id, answer, ok, err
}

// OpenInteractions lists the pending questions of runs other than run (hosts that died
// while asking), oldest first, at most limit.
func (s *Store) OpenInteractions(ctx context.Context, run string, limit int) ([]Interaction, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, run, identity, extension, kind, key, question, state, asked_at_ms FROM interactions WHERE state = 'pending' AND run <> ? ORDER BY asked_at_ms, id LIMIT ?`, run, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list questions: %w", err)
	}
	defer rows.Close()
	var out []Interaction
	for rows.Next() {
		var in Interaction
		var at int64
		if err := rows.Scan(&in.ID, &in.Run, &in.Identity, &in.Extension, &in.Kind, &in.Key, &in.Question, &in.State, &at); err != nil {
			return nil, fmt.Errorf("store: list questions: %w", err)
		}
		in.AskedAt = time.UnixMilli(at)
		out = append(out, in)
	}
	return out, rows.Err()
}

// InteractionByID reads one interaction.
func (s *Store) InteractionByID(ctx context.Context, id string) (Interaction, bool, error) {
	var in Interaction
	var at int64
	err := s.db.QueryRowContext(ctx, `SELECT id, run, identity, extension, kind, key, question, state, answer, asked_at_ms FROM interactions WHERE id = ?`, id).
		Scan(&in.ID, &in.Run, &in.Identity, &in.Extension, &in.Kind, &in.Key, &in.Question, &in.State, &in.Answer, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return in, false, nil
	}
	if err != nil {
		return in, false, fmt.Errorf("store: read question: %w", err)
	}
	in.AskedAt = time.UnixMilli(at)
	return in, true, nil
}
