package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Host events (notifications, diagnostics) arrive in floods: an extension may send
// thousands of notifications a second, so they are group-committed (appendlog.go).

// EventsRetained is how many events the table keeps (EVENTS_RETAINED).
const EventsRetained = protocol.EventsRetained

// AppendEvent queues a host event (notification, diagnostic, …) for the next batch; the
// payload must already be free of secrets. It waits while the queue is full, so a flood
// slows its producer instead of growing memory. A failed commit is reported by the next
// Flush (and Events), which names how many rows it lost.
func (s *Store) AppendEvent(_ context.Context, atMS int64, kind, extension string, payload []byte) error {
	if err := s.log.append(row{event: &eventRow{atMS: atMS, kind: kind, extension: extension, payload: payload}}); err != nil {
		return fmt.Errorf("record %s event: %w", kind, err)
	}
	return nil
}

// FlushEvents is Flush (kept for callers that name what they wait for).
func (s *Store) FlushEvents(ctx context.Context) error { return s.Flush(ctx) }

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
