// Package inspect shows recorded sessions: a list of sessions, and one
// session's exchange (time, direction, method, duration, errors) as text
// for people or JSON for machines. `octet-host inspect` calls it.
package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/octet-kit/octet/host/internal/columns"

	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/store"
)

// Session is one recorded session in a listing.
type Session struct {
	SessionID string    `json:"session_id"`
	Extension string    `json:"extension"`
	StartedAt time.Time `json:"started_at"`
	Frames    int64     `json:"frames"`
}

// Entry is one frame of an exchange, annotated.
type Entry struct {
	Seq       int64           `json:"seq"`
	At        time.Time       `json:"at"`
	Direction string          `json:"direction"`
	Kind      string          `json:"kind"` // request | notification | response | error | invalid
	ID        json.RawMessage `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"` // for responses: the request's method
	// DurationMS is set on responses: time since the matching request.
	DurationMS *int64     `json:"duration_ms,omitempty"`
	Error      *WireError `json:"error,omitempty"`
	Frame      string     `json:"frame"`
}

// WireError is a response's error object.
type WireError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// Sessions lists recorded sessions, newest first.
func Sessions(ctx context.Context, st *store.Store) ([]Session, error) {
	recs, err := st.Recordings(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Session, len(recs))
	for i, r := range recs {
		out[i] = Session{SessionID: r.SessionID, Extension: r.Extension, StartedAt: time.UnixMilli(r.StartedAtMS).UTC(), Frames: r.Frames}
	}
	return out, nil
}

// Exchange reads one session and pairs each response with its request (ids
// are per sender, so a response going host->ext answers a request that
// went ext->host and vice versa).
func Exchange(ctx context.Context, st *store.Store, sessionID string) ([]Entry, error) {
	frames, found, err := st.Frames(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("inspect: no recorded session %q (list them with `octet-host inspect`)", sessionID)
	}
	type pending struct {
		method string
		at     time.Time
	}
	open := map[string]pending{}
	out := make([]Entry, 0, len(frames))
	for _, f := range frames {
		e := Entry{Seq: f.Seq, At: time.UnixMilli(f.AtMS).UTC(), Direction: f.Direction, Frame: string(f.Frame)}
		var env struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Error  *WireError      `json:"error"`
		}
		if json.Unmarshal(f.Frame, &env) != nil {
			e.Kind = "invalid"
			out = append(out, e)
			continue
		}
		hasID := len(env.ID) > 0 && string(env.ID) != "null"
		if hasID {
			e.ID = env.ID
		}
		switch {
		case env.Method != "" && hasID:
			e.Kind, e.Method = "request", env.Method
			open[f.Direction+string(env.ID)] = pending{env.Method, e.At}
		case env.Method != "":
			e.Kind, e.Method = "notification", env.Method
		default:
			e.Kind = "response"
			if env.Error != nil {
				e.Kind, e.Error = "error", env.Error
			}
			reqDir := recording.ExtToHost
			if f.Direction == recording.ExtToHost {
				reqDir = recording.HostToExt
			}
			if p, ok := open[reqDir+string(env.ID)]; ok {
				delete(open, reqDir+string(env.ID))
				d := e.At.Sub(p.at).Milliseconds()
				e.Method, e.DurationMS = p.method, &d
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// WriteSessions prints a listing as a table or (asJSON) a JSON array.
func WriteSessions(w io.Writer, sessions []Session, asJSON bool) error {
	if asJSON {
		return writeJSON(w, sessions)
	}
	if len(sessions) == 0 {
		_, err := fmt.Fprintln(w, "no recorded sessions")
		return err
	}
	var tb columns.Table
	tb.Row("SESSION", "EXTENSION", "STARTED", "FRAMES")
	for _, s := range sessions {
		tb.Row(s.SessionID, s.Extension, s.StartedAt.Format(time.RFC3339), fmt.Sprint(s.Frames))
	}
	_, err := tb.WriteTo(w)
	return err
}

// WriteExchange prints an exchange: one line per frame with time, direction, kind,
// method, id, duration and error, in columns aligned by display width (verbose adds the
// frame on a line of its own under each, which widens no column); or (asJSON) one JSON
// object per frame and line, an Entry, for jq and scripts.
func WriteExchange(w io.Writer, entries []Entry, asJSON, verbose bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, e := range entries {
			if err := enc.Encode(e); err != nil {
				return err
			}
		}
		return nil
	}
	var tb columns.Table
	tb.Row("TIME", "DIRECTION", "KIND", "METHOD", "ID", "DURATION", "ERROR")
	for _, e := range entries {
		dur := ""
		if e.DurationMS != nil {
			dur = fmt.Sprintf("%dms", *e.DurationMS)
		}
		errText := ""
		if e.Error != nil {
			errText = fmt.Sprintf("%d %s", e.Error.Code, oneLine(e.Error.Message, 80))
		}
		tb.Row(e.At.Format("15:04:05.000"), e.Direction, e.Kind, e.Method, string(e.ID), dur, errText)
		if verbose {
			tb.Note(1, oneLine(e.Frame, 400))
		}
	}
	_, err := tb.WriteTo(w)
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func oneLine(s string, max int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) { // never split a character
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}
