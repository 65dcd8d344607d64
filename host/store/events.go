package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Host events (notifications, diagnostics) arrive in floods: an extension may send
// thousands of notifications a second. One SQLite transaction each costs a commit each,
// so they are group-committed instead: AppendEvent queues the row, one writer goroutine
// commits whatever is queued in one transaction per batch, and every batch prunes the
// table to the newest EventsRetained rows. Readers (Events) and Close flush first, so
// nothing queued is ever invisible to them or lost on a clean close.

// EventsRetained is how many events the table keeps (EVENTS_RETAINED).
const EventsRetained = protocol.EventsRetained

const (
	eventBatchMax   = 512  // rows per transaction
	eventPendingMax = 4096 // queued rows before AppendEvent waits (back-pressure)
)

// ErrClosed is returned by AppendEvent once the store is closing.
var ErrClosed = errors.New("store: closed")

type eventRow struct {
	atMS            int64
	kind, extension string
	payload         []byte
}

// eventLog is the group-committing writer of the events table.
type eventLog struct {
	s      *Store
	retain int64

	mu        sync.Mutex
	cond      *sync.Cond // signalled when pending, committed or closed change
	pending   []eventRow
	appended  uint64 // rows ever queued
	committed uint64 // rows ever written or failed (the writer is past them)
	closed    bool
	err       error // the first failed commit since the last Flush
	lost      int   // rows a failed commit lost since the last Flush
	batches   int   // transactions committed (tests check the grouping)
	done      chan struct{}
}

func newEventLog(s *Store, retain int64) *eventLog {
	l := &eventLog{s: s, retain: retain, done: make(chan struct{})}
	l.cond = sync.NewCond(&l.mu)
	go l.write()
	return l
}

// AppendEvent queues a host event (notification, diagnostic, …) for the next batch; the
// payload must already be free of secrets. It waits while eventPendingMax rows are
// queued, so a flood slows its producer instead of growing memory. A failed commit is
// reported by the next Flush (and Events), which names how many rows it lost.
func (s *Store) AppendEvent(_ context.Context, atMS int64, kind, extension string, payload []byte) error {
	l := s.events
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.closed && len(l.pending) >= eventPendingMax {
		l.cond.Wait()
	}
	if l.closed {
		return fmt.Errorf("record %s event: %w", kind, ErrClosed)
	}
	l.pending = append(l.pending, eventRow{atMS: atMS, kind: kind, extension: extension, payload: payload})
	l.appended++
	l.cond.Broadcast()
	return nil
}

// FlushEvents waits until every event appended before the call is committed, and returns
// the error of any commit that failed since the last flush.
func (s *Store) FlushEvents(ctx context.Context) error {
	l := s.events
	l.mu.Lock()
	target := l.appended
	l.mu.Unlock()
	waited := make(chan struct{})
	go func() {
		l.mu.Lock()
		for l.committed < target && !l.closed {
			l.cond.Wait()
		}
		l.mu.Unlock()
		close(waited)
	}()
	select {
	case <-waited:
	case <-l.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	err, lost := l.err, l.lost
	l.err, l.lost = nil, 0
	if err != nil {
		return fmt.Errorf("store: %d events lost: %w", lost, err)
	}
	return nil
}

// close flushes what is queued and stops the writer.
func (l *eventLog) close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return fmt.Errorf("store: %d events lost: %w", l.lost, l.err)
	}
	return nil
}

// write commits batches until the log is closed and empty.
func (l *eventLog) write() {
	defer close(l.done)
	for {
		l.mu.Lock()
		for len(l.pending) == 0 && !l.closed {
			l.cond.Wait()
		}
		if len(l.pending) == 0 {
			l.mu.Unlock()
			return
		}
		n := min(len(l.pending), eventBatchMax)
		batch := l.pending[:n:n]
		l.pending = append([]eventRow(nil), l.pending[n:]...)
		l.cond.Broadcast() // room for a waiting AppendEvent
		l.mu.Unlock()
		err := l.commit(batch)
		l.mu.Lock()
		l.committed += uint64(n)
		l.batches++
		if err != nil {
			if l.err == nil {
				l.err = err
			}
			l.lost += n
		}
		l.cond.Broadcast()
		l.mu.Unlock()
	}
}

// commit inserts a batch in one transaction and prunes the oldest rows beyond retain.
func (l *eventLog) commit(batch []eventRow) error {
	// A background context: the rows were accepted; whoever appended them may be gone.
	ctx := context.Background()
	return l.s.tx(ctx, func(tx *sql.Tx) error {
		stmt, err := tx.PrepareContext(ctx, `INSERT INTO events (at_ms, kind, extension, payload) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return fmt.Errorf("store: record events: %w", err)
		}
		defer stmt.Close()
		var last int64
		for _, e := range batch {
			res, err := stmt.ExecContext(ctx, e.atMS, e.kind, e.extension, e.payload)
			if err != nil {
				return fmt.Errorf("store: record %s event: %w", e.kind, err)
			}
			if last, err = res.LastInsertId(); err != nil {
				return fmt.Errorf("store: record %s event: %w", e.kind, err)
			}
		}
		// Ids grow by one per row (INTEGER PRIMARY KEY, oldest pruned first), so the
		// newest retain rows are those above last-retain; a gap only keeps fewer.
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE id <= ?`, last-l.retain); err != nil {
			return fmt.Errorf("store: prune events: %w", err)
		}
		return nil
	})
}

// Event is a stored host event.
type Event struct {
	AtMS      int64
	Kind      string
	Extension string
	Payload   json.RawMessage
}

// Events lists stored events of one kind ("" = all), oldest first, after flushing the
// events queued so far.
func (s *Store) Events(ctx context.Context, kind string) ([]Event, error) {
	if err := s.FlushEvents(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT at_ms, kind, extension, payload FROM events WHERE ? = '' OR kind = ? ORDER BY id`, kind, kind)
	if err != nil {
		return nil, fmt.Errorf("store: events: %w", err)
	}
	defer rows.Close()
	var out []Event
	for rows.Next() {
		var e Event
		if err := rows.Scan(&e.AtMS, &e.Kind, &e.Extension, &e.Payload); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
