package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// Rows that arrive in floods and need no answer from the database — host events,
// call records, recorded frames — are group-committed: the append methods queue the
// row, one writer goroutine commits whatever is queued in one transaction per batch
// (rows queued while a commit runs form the next batch), and every batch holding events
// prunes that table to the newest EventsRetained rows. Readers of those tables and
// Close flush first, so nothing queued is ever invisible to them or lost on a clean
// close.
//
// Durability (docs/host.md#what-a-kill-can-lose): a queued row is written by the first
// transaction that starts after it was queued. A process killed with SIGKILL loses
// only rows that no committed transaction had started with: at most the batch being
// committed and the one queued behind it (2 × appendBatchMax rows), in practice the
// last few milliseconds. A caller may therefore have been answered for a call whose
// record such a kill loses; nothing a transaction committed is lost (WAL), and what
// survives is always a prefix of what was queued, in order.

const (
	appendBatchMax   = 512  // rows per transaction
	appendPendingMax = 4096 // queued rows before an append waits (back-pressure)
)

// ErrClosed is returned by the append methods once the store is closing.
var ErrClosed = errors.New("store: closed")

// row is one queued row of one of the group-committed tables.
type row struct {
	event *eventRow
	call  *CallRecord
	frame *frameRow
}

func (r row) what() string {
	switch {
	case r.event != nil:
		return "event"
	case r.call != nil:
		return "call record"
	default:
		return "frame"
	}
}

type eventRow struct {
	atMS            int64
	kind, extension string
	payload         []byte
}

type frameRow struct {
	sessionID string
	Frame
}

// appendLog is the group-committing writer.
type appendLog struct {
	s      *Store
	retain int64

	mu        sync.Mutex
	cond      *sync.Cond // signalled when pending, committed or closed change
	pending   []row
	appended  uint64 // rows ever queued
	committed uint64 // rows ever written or failed (the writer is past them)
	closed    bool
	err       error          // the first failed commit since the last Flush
	lost      map[string]int // rows a failed commit lost since the last Flush, by what they were
	batches   int            // transactions committed (tests check the grouping)
	done      chan struct{}
}

func newAppendLog(s *Store, retain int64) *appendLog {
	l := &appendLog{s: s, retain: retain, done: make(chan struct{}), lost: map[string]int{}}
	l.cond = sync.NewCond(&l.mu)
	go l.write()
	return l
}

// append queues rows, waiting while appendPendingMax rows are queued so a flood slows
// its producer instead of growing memory.
func (l *appendLog) append(rows ...row) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.closed && len(l.pending) >= appendPendingMax {
		l.cond.Wait()
	}
	if l.closed {
		return ErrClosed
	}
	l.pending = append(l.pending, rows...)
	l.appended += uint64(len(rows))
	l.cond.Broadcast()
	return nil
}

// Flush waits until every row queued before the call (events, call records, frames) is
// committed, and returns the error of any commit that failed since the last flush,
// naming what it lost.
func (s *Store) Flush(ctx context.Context) error {
	l := s.log
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
	return l.takeErr()
}

// takeErr returns and clears the failure since the last flush; l.mu is held.
func (l *appendLog) takeErr() error {
	err := l.err
	if err == nil {
		return nil
	}
	msg := ""
	for _, what := range []string{"event", "call record", "frame"} {
		if n := l.lost[what]; n > 0 {
			if msg != "" {
				msg += ", "
			}
			msg += fmt.Sprintf("%d %ss", n, what)
		}
	}
	l.err, l.lost = nil, map[string]int{}
	return fmt.Errorf("store: %s lost: %w", msg, err)
}

// close flushes what is queued and stops the writer.
func (l *appendLog) close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	<-l.done
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.takeErr()
}

// write commits batches until the log is closed and empty.
func (l *appendLog) write() {
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
		n := min(len(l.pending), appendBatchMax)
		batch := l.pending[:n:n]
		l.pending = append([]row(nil), l.pending[n:]...)
		l.cond.Broadcast() // room for a waiting append
		l.mu.Unlock()
		err := l.commit(batch)
		l.mu.Lock()
		l.committed += uint64(n)
		l.batches++
		if err != nil {
			if l.err == nil {
				l.err = err
			}
			for _, r := range batch {
				l.lost[r.what()]++
			}
		}
		l.cond.Broadcast()
		l.mu.Unlock()
	}
}

// commit inserts a batch in one transaction and prunes the oldest events beyond retain.
func (l *appendLog) commit(batch []row) error {
	// A background context: the rows were accepted; whoever appended them may be gone.
	ctx := context.Background()
	return l.s.tx(ctx, func(tx *sql.Tx) error {
		stmts := map[string]*sql.Stmt{}
		defer func() {
			for _, st := range stmts {
				st.Close()
			}
		}()
		prepare := func(what, query string) (*sql.Stmt, error) {
			if st := stmts[what]; st != nil {
				return st, nil
			}
			st, err := tx.PrepareContext(ctx, query)
			if err != nil {
				return nil, fmt.Errorf("store: record %ss: %w", what, err)
			}
			stmts[what] = st
			return st, nil
		}
		var lastEvent int64
		for _, r := range batch {
			switch {
			case r.event != nil:
				st, err := prepare("event", `INSERT INTO events (at_ms, kind, extension, payload) VALUES (?, ?, ?, ?)`)
				if err != nil {
					return err
				}
				res, err := st.ExecContext(ctx, r.event.atMS, r.event.kind, r.event.extension, r.event.payload)
				if err == nil {
					lastEvent, err = res.LastInsertId()
				}
				if err != nil {
					return fmt.Errorf("store: record %s event: %w", r.event.kind, err)
				}
			case r.call != nil:
				st, err := prepare("call record", insertCall)
				if err != nil {
					return err
				}
				c := r.call
				if _, err := st.ExecContext(ctx, c.Extension, c.InstanceID, c.Generation, c.Direction, c.Method, c.StartedAtMS, c.DurationMS, c.ErrorCode); err != nil {
					return fmt.Errorf("store: record call %s: %w", c.Method, err)
				}
			case r.frame != nil:
				st, err := prepare("frame", insertFrame)
				if err != nil {
					return err
				}
				f := r.frame
				if _, err := st.ExecContext(ctx, f.sessionID, f.Seq, f.AtMS, f.Direction, f.Frame.Frame); err != nil {
					return fmt.Errorf("store: append frame %d of %s: %w", f.Seq, f.sessionID, err)
				}
			}
		}
		if lastEvent == 0 {
			return nil
		}
		// Ids grow by one per row (INTEGER PRIMARY KEY, oldest pruned first), so the
		// newest retain rows are those above last-retain; a gap only keeps fewer.
		if _, err := tx.ExecContext(ctx, `DELETE FROM events WHERE id <= ?`, lastEvent-l.retain); err != nil {
			return fmt.Errorf("store: prune events: %w", err)
		}
		return nil
	})
}
