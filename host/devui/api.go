package devui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/inspect"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// maxBody bounds a request body from the page (tool arguments, an answer).
const maxBody = 4 << 20

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /app.js", s.asset("app.js", "text/javascript; charset=utf-8"))
	mux.HandleFunc("GET /app.css", s.asset("app.css", "text/css; charset=utf-8"))
	mux.HandleFunc("GET /api/state", s.apiState)
	mux.HandleFunc("GET /api/events", s.apiEvents)
	mux.HandleFunc("POST /api/call", s.apiCall)
	mux.HandleFunc("POST /api/command", s.apiCommand)
	mux.HandleFunc("POST /api/answer", s.apiAnswer)
	mux.HandleFunc("GET /api/sessions", s.apiSessions)
	mux.HandleFunc("GET /api/session", s.apiSession)
	mux.HandleFunc("POST /api/replay", s.apiReplay)
	mux.HandleFunc("GET /api/artifact", s.apiArtifact)
	return mux
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, map[string]any{"error": map[string]any{"message": fmt.Sprintf(format, args...)}})
}

// readJSON decodes a POST body into v; only application/json is taken, so a plain HTML
// form from elsewhere cannot post here even before the token is checked.
func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		fail(w, http.StatusUnsupportedMediaType, "Content-Type must be application/json, not %q", ct)
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		fail(w, http.StatusBadRequest, "reading the body: %v", err)
		return false
	}
	if len(body) > maxBody {
		fail(w, http.StatusRequestEntityTooLarge, "the body is over %d bytes", maxBody)
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		fail(w, http.StatusBadRequest, "the body is not the JSON expected: %v", err)
		return false
	}
	return true
}

// extensionState is one extension as the page shows it.
type extensionState struct {
	host.Status
	Dir        string           `json:"dir"`
	StderrTail []string         `json:"stderr_tail"`
	ToolDefs   []toolDefinition `json:"tool_definitions"`
}

// toolDefinition is a catalog entry as the page reads it: the definition's members and its
// revision, spelled out (embedding protocol.ToolDefinition would promote its MarshalJSON,
// which knows nothing of catalog_revision).
type toolDefinition struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Parameters   json.RawMessage `json:"parameters"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
	Revision     int64           `json:"catalog_revision"`
}

func (s *Server) apiState(w http.ResponseWriter, r *http.Request) {
	rt, _ := s.host()
	out := map[string]any{"started_at_ms": s.started.UnixMilli(), "replay": s.cfg.Replay != nil,
		"questions": s.answers.pending(), "seq": s.hub.lastSeq()}
	exts := []extensionState{}
	if rt != nil {
		cat := rt.Catalog()
		for _, e := range rt.Extensions() {
			st := extensionState{Status: e.Status(), Dir: e.Entry().Dir, StderrTail: e.StderrTail(), ToolDefs: []toolDefinition{}}
			sort.Strings(st.Features) // negotiated as a set; shown in a stable order
			if st.StderrTail == nil {
				st.StderrTail = []string{}
			}
			if cat != nil {
				for _, t := range cat.Tools {
					if t.Extension == e.Name() {
						st.ToolDefs = append(st.ToolDefs, toolDefinition{Name: t.Tool.Name, Description: t.Tool.Description, Parameters: t.Tool.Parameters, OutputSchema: t.Tool.OutputSchema, Revision: t.Revision})
					}
				}
			}
			exts = append(exts, st)
		}
		out["session_id"] = rt.SessionID()
	}
	out["extensions"] = exts
	writeJSON(w, http.StatusOK, out)
}

// apiEvents is the live stream (server-sent events): first every kept entry after
// Last-Event-ID (or ?since=), then each new one as it happens.
func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		fail(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	since := r.Header.Get("Last-Event-ID")
	if since == "" {
		since = r.URL.Query().Get("since")
	}
	seq, _ := strconv.ParseInt(since, 10, 64)
	backlog, ch, cancel := s.hub.subscribe(seq)
	defer cancel()
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	for _, msg := range backlog {
		_, _ = w.Write(msg)
	}
	fl.Flush()
	keep := time.NewTicker(15 * time.Second) // a comment line keeps idle proxies and the browser from timing out
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case msg, open := <-ch:
			if !open {
				return // fell behind: the browser reconnects and resumes from the ring
			}
			if _, err := w.Write(msg); err != nil {
				return
			}
			fl.Flush()
		case <-keep.C:
			_, _ = io.WriteString(w, ": keep-alive\n\n")
			fl.Flush()
		}
	}
}

type callRequest struct {
	Extension string          `json:"extension"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// apiCall calls a tool as one turn of the session, like `octet-host call`, and answers
// with its result or its error; what happens meanwhile arrives on the event stream.
func (s *Server) apiCall(w http.ResponseWriter, r *http.Request) {
	var req callRequest
	if !readJSON(w, r, &req) {
		return
	}
	rt, sess := s.host()
	if rt == nil {
		fail(w, http.StatusServiceUnavailable, "the host is not started yet")
		return
	}
	e := rt.Extension(req.Extension)
	if e == nil {
		fail(w, http.StatusNotFound, "no extension %q", req.Extension)
		return
	}
	if len(req.Arguments) == 0 {
		req.Arguments = json.RawMessage(`{}`)
	}
	id := s.callSeq.Add(1)
	s.hub.publish("call", req.Extension, 0, map[string]any{"call": id, "tool": req.Tool, "arguments": json.RawMessage(rt.Redactor().Frame(req.Arguments))})
	start := time.Now()
	turn := sess.TurnStarted()
	raw, err := sess.CallTool(r.Context(), e, turn, req.Tool, req.Arguments)
	outcome := "completed"
	if err != nil {
		outcome = "failed"
	}
	sess.TurnSettled(turn, outcome)
	out := map[string]any{"call": id, "duration_ms": time.Since(start).Milliseconds()}
	if err != nil {
		out["error"] = describe(err)
	} else {
		out["result"] = json.RawMessage(rt.Redactor().Frame(raw))
	}
	s.hub.publish("call", req.Extension, 0, map[string]any{"call": id, "tool": req.Tool, "done": true, "ok": err == nil, "duration_ms": out["duration_ms"]})
	writeJSON(w, http.StatusOK, out)
}

// describe is a call error as the page shows it: the message, and a JSON-RPC error's code
// and data.
func describe(err error) map[string]any {
	out := map[string]any{"message": err.Error()}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		out["code"] = we.Code
		if len(we.Data) > 0 {
			out["data"] = json.RawMessage(we.Data)
		}
	}
	return out
}

type commandRequest struct {
	Extension string   `json:"extension"`
	Command   string   `json:"command"`
	Arguments []string `json:"arguments"`
}

// apiCommand runs a command (a presentation action names one).
func (s *Server) apiCommand(w http.ResponseWriter, r *http.Request) {
	var req commandRequest
	if !readJSON(w, r, &req) {
		return
	}
	rt, _ := s.host()
	if rt == nil {
		fail(w, http.StatusServiceUnavailable, "the host is not started yet")
		return
	}
	e := rt.Extension(req.Extension)
	if e == nil {
		fail(w, http.StatusNotFound, "no extension %q", req.Extension)
		return
	}
	if req.Arguments == nil {
		req.Arguments = []string{}
	}
	raw, err := e.ExecuteCommand(r.Context(), req.Command, req.Arguments)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"error": describe(err)})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"result": json.RawMessage(rt.Redactor().Frame(raw))})
}

type answerRequest struct {
	ID        string  `json:"id"`
	Confirmed bool    `json:"confirmed"`
	Value     *string `json:"value"`
}

func (s *Server) apiAnswer(w http.ResponseWriter, r *http.Request) {
	var req answerRequest
	if !readJSON(w, r, &req) {
		return
	}
	if err := s.answers.reply(req.ID, answer{Confirmed: req.Confirmed, Value: req.Value}); err != nil {
		var ae *services.AnswerError
		if errors.As(err, &ae) {
			writeJSON(w, http.StatusUnprocessableEntity, map[string]any{"error": map[string]any{"message": ae.Message, "kind": ae.Kind}})
			return
		}
		fail(w, http.StatusConflict, "%s: %v", req.ID, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func (s *Server) apiSessions(w http.ResponseWriter, r *http.Request) {
	rt, _ := s.host()
	if rt == nil {
		fail(w, http.StatusServiceUnavailable, "the host is not started yet")
		return
	}
	list, err := inspect.Sessions(r.Context(), rt.Store())
	if err != nil {
		fail(w, http.StatusInternalServerError, "%v", err)
		return
	}
	if list == nil {
		list = []inspect.Session{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": list})
}

func (s *Server) apiSession(w http.ResponseWriter, r *http.Request) {
	rt, _ := s.host()
	if rt == nil {
		fail(w, http.StatusServiceUnavailable, "the host is not started yet")
		return
	}
	id := r.URL.Query().Get("id")
	entries, err := inspect.Exchange(r.Context(), rt.Store(), id)
	if err != nil {
		fail(w, http.StatusNotFound, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session_id": id, "entries": entries})
}

func (s *Server) apiReplay(w http.ResponseWriter, r *http.Request) {
	var req struct {
		SessionID string `json:"session_id"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	if s.cfg.Replay == nil {
		fail(w, http.StatusNotImplemented, "this octet-host has no replay")
		return
	}
	rt, _ := s.host()
	if rt == nil {
		fail(w, http.StatusServiceUnavailable, "the host is not started yet")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Minute)
	defer cancel()
	diff, err := s.cfg.Replay(ctx, rt.Store(), req.SessionID)
	if err != nil {
		fail(w, http.StatusUnprocessableEntity, "replay %s: %v", req.SessionID, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session_id": req.SessionID, "diff": diff})
}

// eventSink publishes every service event, then passes it on.
type eventSink struct {
	s    *Server
	next services.EventSink
}

func (e eventSink) Event(ev services.Event) {
	e.s.hub.publish("event", ev.Extension, ev.Generation, map[string]any{"kind": ev.Kind, "payload": ev.Payload})
	if e.next != nil {
		e.next.Event(ev)
	}
}
