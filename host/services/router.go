package services

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sync"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Owner, Caller and ToolDefinition are the host core's types: the core calls
// the Router with the identity it started a process with, so a Router is a
// host.Services as it stands and nothing copies identities field by field.
type (
	// Owner is the host-derived resource owner of a request (wire.md §4).
	Owner = host.Owner
	// Caller is the identity the host core started a process with. The
	// router binds every service to it, never to what the extension claims.
	Caller = host.Caller
	// ToolDefinition is one tool of a catalog (wire.md §4).
	ToolDefinition = host.ToolDefinition
)

// A Router serves the host core directly, and reports dropped notifications.
var (
	_ host.Services     = (*Router)(nil)
	_ host.DropReporter = (*Router)(nil)
)

// Timers schedules f after d; the returned func stops it. Tests inject a
// manual implementation so nothing sleeps.
type Timers interface {
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realTimers struct{}

// AfterFunc is time.AfterFunc.
func (realTimers) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// RouterConfig wires a Router.
type RouterConfig struct {
	// Store is the state database (required).
	Store *store.Store
	// Script answers confirmations, input, policy and child sessions and
	// brokers secrets; nil is the default policy (deny, cancel, no secrets).
	Script *script.Script
	// Events receives console events; nil discards them.
	Events EventSink
	// Asker answers the confirmations and input the Script does not; nil leaves them to
	// the default policy.
	Asker Asker
	// Redactor is the host's one redactor. The router adds the script's
	// broker values and every secret input answer to it before handing them
	// out, and redacts with it every event and diagnostic it emits or stores.
	// Nil makes a private one.
	Redactor *redact.Redactor
	// Clock is the time source (presentation windows, approval expiry,
	// agent timestamps); nil is time.Now.
	Clock func() time.Time
	// Timers schedules the presentation flush and agent/wait timeouts; nil
	// uses real timers.
	Timers Timers
	// Random is the source for artifact ids, agent ids and approval tokens;
	// nil is crypto/rand.
	Random io.Reader
	// ApprovalTTL is how long an approval token lives (default 60 s).
	ApprovalTTL time.Duration
	// OnCatalog is called with the whole candidate catalog before a
	// tools/register or tools/unregister is acknowledged. Returning an error
	// refuses the mutation (-32602 with the error's text) and leaves the
	// catalog unchanged; returning nil must mean the core has swapped its
	// global catalog to this revision. Nil accepts every valid mutation.
	OnCatalog func(c *Caller, revision int64, tools []ToolDefinition) error
}

// Router serves every extension->host method.
type Router struct {
	cfg   RouterConfig
	store *store.Store
	// red redacts every secret handed out from anything the router stores or
	// emits that carries extension-provided text (an extension may echo a
	// secret into a notification, a progress message or a bad parameter).
	red *redact.Redactor

	mu        sync.Mutex
	gens      map[genKey]*genState
	inflight  map[parentKey]map[*inflightCall]struct{}
	agentMu   sync.Mutex // serialises child-session bookkeeping
	agentWake agentWake  // wakes agent/wait when a child changes

	run string // random per router: its durable questions are the ones being asked now
}

// genKey identifies one process generation.
type genKey struct {
	instance   string
	generation int64
}

// parentKey identifies a host request of one generation.
type parentKey struct {
	gen genKey
	id  jsonrpc.ID
}

type inflightCall struct{ cancel context.CancelCauseFunc }

// errParentSettled cancels reverse calls whose parent request finished.
var errParentSettled = errors.New("the parent request settled")

// NewRouter checks cfg and builds a Router.
func NewRouter(cfg RouterConfig) (*Router, error) {
	if cfg.Store == nil {
		return nil, errors.New("services: RouterConfig.Store is required")
	}
	if cfg.Events == nil {
		cfg.Events = EventSinkFunc(func(Event) {})
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Timers == nil {
		cfg.Timers = realTimers{}
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.ApprovalTTL <= 0 {
		cfg.ApprovalTTL = approvalTokenTTL
	}
	if cfg.Redactor == nil {
		cfg.Redactor = redact.New()
	}
	cfg.Redactor.Add(cfg.Script.SecretValues()...)
	return &Router{
		cfg:      cfg,
		store:    cfg.Store,
		red:      cfg.Redactor,
		gens:     map[genKey]*genState{},
		inflight: map[parentKey]map[*inflightCall]struct{}{},
		run:      rand.Text(),
	}, nil
}

// Handle serves one extension->host request or notification. Errors are
// *jsonrpc.Error. For notifications (req.ID zero) the result is nil and any
// problem becomes a diagnostic event instead of an error the core would
// have nowhere to send.
func (r *Router) Handle(ctx context.Context, c *Caller, req *jsonrpc.Request) (any, error) {
	if c == nil || req == nil {
		return nil, internal("services: Handle needs a caller and a request")
	}
	m, ok := methods[req.Method]
	if !ok {
		if req.IsNotification() {
			r.diagnose(c, req.Method, "unknown notification method; ignored")
			return nil, nil
		}
		return nil, methodNotFound(req.Method, "the host does not serve it")
	}
	if why := m.unavailableFor(c); why != "" {
		if req.IsNotification() {
			r.diagnose(c, req.Method, why+"; ignored")
			return nil, nil
		}
		return nil, methodNotFound(req.Method, why)
	}
	if m.notification() != req.IsNotification() {
		if req.IsNotification() {
			r.diagnose(c, req.Method, "sent as a notification but it is a request; ignored")
			return nil, nil
		}
		return nil, jsonrpc.NewError(protocol.CodeInvalidRequest, fmt.Sprintf("%s is a notification; send it without an id", req.Method), nil)
	}
	params := req.Params
	if len(params) == 0 {
		params = json.RawMessage(`{}`)
	}
	start := r.now()
	res, err := m.serve(r, ctx, c, params)
	if req.IsNotification() {
		if err != nil {
			r.diagnose(c, req.Method, err.Error())
		}
		return nil, nil
	}
	if err != nil {
		var we *jsonrpc.Error
		if !errors.As(err, &we) {
			if errors.Is(err, context.Canceled) {
				we = jsonrpc.NewError(protocol.CodeRequestCancelled, "request cancelled", nil)
			} else {
				we = internal("%s failed: %v", req.Method, err)
			}
		}
		r.recordCall(c, req.Method, start, &we.Code)
		return nil, we
	}
	r.recordCall(c, req.Method, start, nil)
	return res, nil
}

// recordCall queues timing and outcome of a served request for the store's group commit
// (never params or results: they may hold secrets or user text). The answer does not wait
// for the commit; what a kill can lose is stated in host/store/appendlog.go.
func (r *Router) recordCall(c *Caller, method string, start time.Time, code *int64) {
	_ = r.store.AppendCall(store.CallRecord{Extension: c.Extension, InstanceID: c.InstanceID, Generation: c.Generation,
		Direction: "in", Method: method, StartedAtMS: start.UnixMilli(), DurationMS: r.now().Sub(start).Milliseconds(), ErrorCode: code})
}

// ParentSettled tells the router a host request of c's generation finished:
// its progress stream closes and reverse calls correlated to it (a pending
// agent/wait, …) are cancelled.
func (r *Router) ParentSettled(c *Caller, id jsonrpc.ID) {
	key := parentKey{gen: genKey{c.InstanceID, c.Generation}, id: id}
	r.mu.Lock()
	calls := r.inflight[key]
	delete(r.inflight, key)
	if g := r.gens[key.gen]; g != nil {
		delete(g.progress, id)
	}
	r.mu.Unlock()
	for call := range calls {
		call.cancel(errParentSettled)
	}
}

// GenerationEnded drops the per-generation state of c's generation:
// presentation state and timers, progress streams and catalogs. Durable
// records (artifacts, agents, KV) stay in the store; artifacts of an ended
// generation no longer resolve for a newer one anyway.
func (r *Router) GenerationEnded(c *Caller) {
	key := genKey{c.InstanceID, c.Generation}
	r.mu.Lock()
	g := r.gens[key]
	delete(r.gens, key)
	r.mu.Unlock()
	if g != nil {
		g.stopTimers()
	}
}

// gen returns (creating) the state of c's generation. Callers hold r.mu.
func (r *Router) genLocked(c *Caller) *genState {
	key := genKey{c.InstanceID, c.Generation}
	g := r.gens[key]
	if g == nil {
		g = newGenState()
		r.gens[key] = g
	}
	return g
}

func (r *Router) now() time.Time { return r.cfg.Clock() }

// emit sends one event, its payload redacted (every event may carry text an
// extension chose).
func (r *Router) emit(c *Caller, kind EventKind, payload any) {
	payload, _ = r.redacted(payload)
	r.cfg.Events.Event(Event{Kind: kind, At: r.now(), Extension: c.Extension, InstanceID: c.InstanceID, Generation: c.Generation, Payload: payload})
}

// redacted returns payload with every secret removed, and its JSON (what the
// events table stores). The payload is checked through its JSON, so every
// string field of every payload type is covered without a list to keep up to
// date; only a payload that held a secret is decoded back into a fresh value
// of its own type.
func (r *Router) redacted(payload any) (any, []byte) {
	b, err := json.Marshal(payload)
	if err != nil {
		return payload, nil
	}
	clean := r.red.Frame(b)
	if len(clean) == len(b) && (len(b) == 0 || &clean[0] == &b[0]) {
		return payload, b
	}
	t := reflect.TypeOf(payload)
	v := reflect.New(t)
	if json.Unmarshal(clean, v.Interface()) != nil {
		// A secret spanning JSON structure left the text invalid: nothing of
		// the payload is safe to show.
		zero := reflect.Zero(t).Interface()
		b, _ = json.Marshal(zero)
		return zero, b
	}
	return v.Elem().Interface(), clean
}

// diagnose reports a problem with what c sent to the console and records it.
func (r *Router) diagnose(c *Caller, method, msg string) {
	d, b := r.redacted(Diagnostic{Method: method, Message: msg})
	r.cfg.Events.Event(Event{Kind: EventDiagnostic, At: r.now(), Extension: c.Extension, InstanceID: c.InstanceID, Generation: c.Generation, Payload: d})
	_ = r.store.AppendEvent(context.Background(), r.now().UnixMilli(), string(EventDiagnostic), c.Extension, b)
}

// NotificationsDropped reports, as a diagnostic with the count, notifications of c the
// host read and never handled (host.DropReporter).
func (r *Router) NotificationsDropped(c *Caller, n int) {
	d := Diagnostic{Method: protocol.MethodNotification, Dropped: n,
		Message: fmt.Sprintf("%d notifications dropped: the connection closed before they were handled (NOTIFICATION_DRAIN_MS)", n)}
	r.emit(c, EventDiagnostic, d)
	b, _ := json.Marshal(d)
	_ = r.store.AppendEvent(context.Background(), r.now().UnixMilli(), string(EventDiagnostic), c.Extension, b)
}

// withParent resolves parent_request_id to the active owner and registers
// the call so ParentSettled can cancel it. Call the returned done func when
// the call finishes.
func (r *Router) withParent(ctx context.Context, c *Caller, parent protocol.RequestID) (context.Context, Owner, jsonrpc.ID, func(), error) {
	id := requestID(parent)
	owner, ok := r.activeParent(c, id)
	if !ok {
		return nil, Owner{}, id, nil, unavailable("parent_request_id %s is not a host request this process is serving", idText(id))
	}
	ctx, cancel := context.WithCancelCause(ctx)
	call := &inflightCall{cancel: cancel}
	key := parentKey{gen: genKey{c.InstanceID, c.Generation}, id: id}
	r.mu.Lock()
	if r.inflight[key] == nil {
		r.inflight[key] = map[*inflightCall]struct{}{}
	}
	r.inflight[key][call] = struct{}{}
	r.mu.Unlock()
	done := func() {
		r.mu.Lock()
		delete(r.inflight[key], call)
		if len(r.inflight[key]) == 0 {
			delete(r.inflight, key)
		}
		r.mu.Unlock()
		cancel(nil)
	}
	return ctx, owner, id, done, nil
}

func (r *Router) activeParent(c *Caller, id jsonrpc.ID) (Owner, bool) {
	if c.ActiveParent == nil {
		return Owner{}, false
	}
	o, ok := c.ActiveParent(id)
	if !ok {
		return Owner{}, false
	}
	// The owner's generation fence must be this process's: a parent from
	// another generation cannot authorise anything here.
	if o.ExtensionInstanceID != "" && (o.ExtensionInstanceID != c.InstanceID || o.ProcessGeneration != c.Generation) {
		return Owner{}, false
	}
	return o, true
}

// requestID is the transport's id for a parent_request_id the schema already checked
// (an integer ≥ 0 or a string of 1..MAX_ID_BYTES bytes).
func requestID(p protocol.RequestID) jsonrpc.ID {
	if p.Integer != nil {
		return jsonrpc.IntID(*p.Integer)
	}
	if p.String != nil {
		return jsonrpc.StringID(*p.String)
	}
	return jsonrpc.ID{}
}

func idText(id jsonrpc.ID) string {
	b, err := id.MarshalJSON()
	if err != nil {
		return id.String()
	}
	return string(b)
}
