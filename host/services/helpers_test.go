package services_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// fakeTimers records timers; tests fire them explicitly.
type fakeTimers struct {
	mu         sync.Mutex
	timers     []*fakeTimer
	registered chan time.Duration
}

type fakeTimer struct {
	d       time.Duration
	f       func()
	stopped bool
}

func (ft *fakeTimers) AfterFunc(d time.Duration, f func()) func() bool {
	t := &fakeTimer{d: d, f: f}
	ft.mu.Lock()
	ft.timers = append(ft.timers, t)
	ft.mu.Unlock()
	select {
	case ft.registered <- d:
	default:
	}
	return func() bool {
		ft.mu.Lock()
		defer ft.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// Fire runs every pending timer once.
func (ft *fakeTimers) Fire() int {
	ft.mu.Lock()
	ts := ft.timers
	ft.timers = nil
	ft.mu.Unlock()
	n := 0
	for _, t := range ts {
		if !t.stopped {
			t.stopped = true
			t.f()
			n++
		}
	}
	return n
}

type env struct {
	t       testing.TB
	r       *services.Router
	st      *store.Store
	clock   *fakeClock
	timers  *fakeTimers
	c       *services.Caller
	mu      sync.Mutex
	events  []services.Event
	active  map[jsonrpc.ID]services.Owner
	catalog func(c *services.Caller, rev int64, tools []services.ToolDefinition) error
	// interact, when set, is the router's Interact hook.
	interact func(ctx context.Context, q services.Question) (services.Answer, bool)
}

var parent = jsonrpc.IntID(7)

func defaultOwner() services.Owner {
	return services.Owner{SessionID: "sess-1", InstanceID: "inst-1", Generation: 1}
}

// newEnv builds a Router over a temp store, a fake clock and timers, and a
// caller with every feature negotiated and host request 7 active.
func newEnv(t testing.TB, sc *script.Script) *env {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, st: st, clock: &fakeClock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)},
		timers: &fakeTimers{registered: make(chan time.Duration, 16)}, active: map[jsonrpc.ID]services.Owner{parent: defaultOwner()}}
	e.c = &services.Caller{
		Extension: "demo", Principal: "demo@" + store.Digest([]byte("manifest")), APIVersion: "0.4",
		InstanceID: "inst-1", Generation: 1,
		Features: map[string]bool{"request_cancellation": true, "content_parts": true, "request_progress": true, "artifacts": true,
			"lifecycle_events": true, "policy_intents": true, "dynamic_tools": true, "progress_decoration": true,
			"agent_sessions": true, "approvals": true, "secrets": true, "kv": true},
		Secrets: []string{"api.token", "missing.token"}, Commands: []string{"open", "stop"}, UI: []string{"status"}, Context: true,
		Presentation: true, Notifications: true, Confirmations: true,
		ScratchDir: t.TempDir(),
		ActiveParent: func(id jsonrpc.ID) (services.Owner, bool) {
			e.mu.Lock()
			defer e.mu.Unlock()
			o, ok := e.active[id]
			return o, ok
		},
	}
	r, err := services.NewRouter(services.RouterConfig{
		Store: st, Script: sc, Clock: e.clock.Now, Timers: e.timers,
		Events: services.EventSinkFunc(func(ev services.Event) {
			e.mu.Lock()
			e.events = append(e.events, ev)
			e.mu.Unlock()
		}),
		OnCatalog: func(c *services.Caller, rev int64, tools []services.ToolDefinition) error {
			if e.catalog != nil {
				return e.catalog(c, rev, tools)
			}
			return nil
		},
		Interact: func(ctx context.Context, q services.Question) (services.Answer, bool) {
			if e.interact != nil {
				return e.interact(ctx, q)
			}
			return services.Answer{}, false
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	e.r = r
	return e
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	if raw, ok := v.(string); ok {
		return json.RawMessage(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// call sends a request and returns the JSON result or the wire error.
func (e *env) call(method string, params any) (json.RawMessage, *jsonrpc.Error) {
	e.t.Helper()
	return e.callAs(e.c, method, params)
}

func (e *env) callAs(c *services.Caller, method string, params any) (json.RawMessage, *jsonrpc.Error) {
	e.t.Helper()
	res, err := e.r.Handle(context.Background(), c, &jsonrpc.Request{ID: jsonrpc.StringID("go:1"), Method: method, Params: mustJSON(e.t, params)})
	if err != nil {
		we, ok := err.(*jsonrpc.Error)
		if !ok {
			e.t.Fatalf("%s returned %T %v, want *jsonrpc.Error", method, err, err)
		}
		return nil, we
	}
	b, merr := json.Marshal(res)
	if merr != nil {
		e.t.Fatalf("%s result does not encode: %v", method, merr)
	}
	return b, nil
}

// ok calls and fails the test on an error, decoding the result into out.
func (e *env) ok(method string, params any, out any) {
	e.t.Helper()
	res, err := e.call(method, params)
	if err != nil {
		e.t.Fatalf("%s: unexpected error %d %s (data %s)", method, err.Code, err.Message, err.Data)
	}
	if out != nil {
		if jerr := json.Unmarshal(res, out); jerr != nil {
			e.t.Fatalf("%s: result %s: %v", method, res, jerr)
		}
	}
}

// fails calls and asserts the error code; it returns the error.
func (e *env) fails(method string, params any, code int64) *jsonrpc.Error {
	e.t.Helper()
	res, err := e.call(method, params)
	if err == nil {
		e.t.Fatalf("%s: got result %s, want error %d", method, res, code)
	}
	if err.Code != code {
		e.t.Fatalf("%s: got error %d %q, want %d", method, err.Code, err.Message, code)
	}
	return err
}

// notify sends a notification; notifications never return errors.
func (e *env) notify(method string, params any) {
	e.t.Helper()
	res, err := e.r.Handle(context.Background(), e.c, &jsonrpc.Request{Method: method, Params: mustJSON(e.t, params)})
	if res != nil || err != nil {
		e.t.Fatalf("notification %s returned %v, %v; want nil, nil", method, res, err)
	}
}

func (e *env) eventsOf(kind services.EventKind) []services.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []services.Event
	for _, ev := range e.events {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

func (e *env) lastDiagnostic() string {
	d := e.eventsOf(services.EventDiagnostic)
	if len(d) == 0 {
		return ""
	}
	return d[len(d)-1].Payload.(services.Diagnostic).Message
}

func (e *env) setActive(id jsonrpc.ID, o services.Owner, on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if on {
		e.active[id] = o
	} else {
		delete(e.active, id)
	}
}

func contains(b []byte, s string) bool { return bytes.Contains(b, []byte(s)) }
