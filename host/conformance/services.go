package conformance

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Services answers the extension's requests during a check with the reference host's
// own services router (host/services) over a fresh SQLite store and the conformance
// script (services_script.go), so "certified" means "works with the reference host".
// In front of the router it records every request and its answer, and can refuse the
// next request of a method with an error of the check's choosing (Refuse): some host
// errors (a store that is full, an owner that went away) cannot be provoked on demand,
// and a check still has to see them carried verbatim.
type Services struct {
	s      *Session
	ext    *Extension
	router *services.Router
	store  *store.Store

	mu       sync.Mutex
	caller   *host.Caller // nil until initialize is answered
	calls    []Call
	refusals map[string]*RPCError
	answers  map[string]json.RawMessage
	events   []services.Event
}

// Call is one request the extension made, with the answer it got.
type Call struct {
	Method string
	Params json.RawMessage
	Result json.RawMessage // nil when refused
	Error  *RPCError
}

// newServices opens a store under stateDir and a router scripted with secrets.
func newServices(s *Session, ext *Extension, secrets map[string]string, stateDir string) (*Services, error) {
	sc, err := conformanceScript(secrets)
	if err != nil {
		return nil, err
	}
	st, err := store.Open(context.Background(), stateDir)
	if err != nil {
		return nil, fmt.Errorf("conformance state store: %w", err)
	}
	v := &Services{s: s, ext: ext, store: st}
	router, err := services.NewRouter(services.RouterConfig{Store: st, Script: sc, Events: services.EventSinkFunc(v.event)})
	if err != nil {
		st.Close()
		return nil, err
	}
	v.router = router
	return v, nil
}

// event records what the router accepted and delivered (or diagnosed).
func (v *Services) event(e services.Event) {
	v.mu.Lock()
	v.events = append(v.events, e)
	v.mu.Unlock()
}

// Events returns the service events the router emitted so far (accepted notifications,
// progress, snapshots, diagnostics), in order: what the host delivered, not what was
// merely on the wire.
func (v *Services) Events() []services.Event {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]services.Event(nil), v.events...)
}

// initialized binds the router to the generation the handshake produced: its
// negotiated features and its initialize catalog (revision 0).
func (v *Services) initialized(api string, r *InitResult) {
	m := v.ext.Manifest
	var b [8]byte
	_, _ = rand.Read(b[:])
	c := &host.Caller{
		Extension: m.Name, Principal: m.Principal(), Identity: m.Identity(), APIVersion: api,
		InstanceID: "conformance-" + hex.EncodeToString(b[:]), Generation: 1,
		Features: map[string]bool{}, Secrets: m.Capabilities.Secrets,
		Commands: m.Contributes.Commands, UI: m.Contributes.UI, Context: m.Contributes.Context,
		Presentation: m.Contributes.Presentation, Notifications: m.Contributes.Notifications,
		Confirmations: m.Contributes.Confirmations,
		ScratchDir:    v.s.scratch,
	}
	if r.Protocol != nil {
		for _, f := range r.Protocol.Features {
			c.Features[f] = true
		}
	}
	c.ActiveParent = func(id jsonrpc.ID) (host.Owner, bool) {
		n, ok := id.Int()
		if !ok {
			return host.Owner{}, false
		}
		v.s.mu.Lock()
		_, serving := v.s.pending[n]
		v.s.mu.Unlock()
		return host.Owner{SessionID: conformanceSession, ExtensionInstanceID: c.InstanceID, ProcessGeneration: c.Generation}, serving
	}
	var tools []host.ToolDefinition
	for _, t := range r.Tools {
		tools = append(tools, host.ToolDefinition{Name: t.Name, Description: t.Description, Parameters: t.Parameters, OutputSchema: t.OutputSchema})
	}
	_ = v.router.SeedCatalog(c, tools)
	v.mu.Lock()
	v.caller = c
	v.mu.Unlock()
}

// Refuse makes the next request with that method answer err instead of being
// served, so a check can see a host error of any code carried verbatim.
func (v *Services) Refuse(method string, err *RPCError) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.refusals == nil {
		v.refusals = map[string]*RPCError{}
	}
	v.refusals[method] = err
}

// Answer makes the next request with that method answer result verbatim instead of
// being served: a host answer of the wrong shape, which the reference host never sends.
func (v *Services) Answer(method string, result json.RawMessage) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.answers == nil {
		v.answers = map[string]json.RawMessage{}
	}
	v.answers[method] = result
}

// Calls returns the extension's requests with the given method, in arrival order.
func (v *Services) Calls(method string) []Call {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []Call
	for _, c := range v.calls {
		if c.Method == method {
			out = append(out, c)
		}
	}
	return out
}

// LastError is the error the host answered the last request of method with (nil
// when it succeeded or none was made).
func (v *Services) LastError(method string) *RPCError {
	calls := v.Calls(method)
	if len(calls) == 0 {
		return nil
	}
	return calls[len(calls)-1].Error
}

// handle answers one extension request: a refusal the check arranged, or the router.
func (v *Services) handle(id json.RawMessage, method string, params json.RawMessage) (any, *RPCError) {
	v.mu.Lock()
	i := len(v.calls)
	v.calls = append(v.calls, Call{Method: method, Params: params})
	refusal := v.refusals[method]
	delete(v.refusals, method)
	answer, answered := v.answers[method]
	delete(v.answers, method)
	caller := v.caller
	v.mu.Unlock()
	res, rpcErr := any(nil), refusal
	switch {
	case refusal != nil:
	case answered:
		res = answer
	default:
		res, rpcErr = v.serve(caller, id, method, params)
	}
	raw, _ := json.Marshal(res)
	v.mu.Lock()
	v.calls[i].Error = rpcErr
	if rpcErr == nil {
		v.calls[i].Result = raw
	}
	v.mu.Unlock()
	return res, rpcErr
}

func (v *Services) serve(c *host.Caller, rawID json.RawMessage, method string, params json.RawMessage) (any, *RPCError) {
	if c == nil {
		return nil, &RPCError{Code: -32002, Message: method + " before the initialize handshake completed"}
	}
	var id jsonrpc.ID
	if err := json.Unmarshal(rawID, &id); err != nil {
		return nil, &RPCError{Code: -32600, Message: fmt.Sprintf("request id %s: %v", rawID, err)}
	}
	res, err := v.router.Handle(context.Background(), c, &jsonrpc.Request{ID: id, Method: method, Params: params})
	if err == nil {
		return res, nil
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return nil, &RPCError{Code: we.Code, Message: we.Message, Data: we.Data}
	}
	return nil, &RPCError{Code: -32603, Message: err.Error()}
}

// notify hands an extension notification to the router (presentation, progress,
// contributions), as the reference host does; what a check asserts it reads from
// the session's own record of notifications.
func (v *Services) notify(method string, params json.RawMessage) {
	v.mu.Lock()
	c := v.caller
	v.mu.Unlock()
	if c != nil {
		_, _ = v.router.Handle(context.Background(), c, &jsonrpc.Request{Method: method, Params: params})
	}
}

// parentSettled tells the router a host request was answered (reverse calls under it end).
func (v *Services) parentSettled(id int64) {
	v.mu.Lock()
	c := v.caller
	v.mu.Unlock()
	if c != nil {
		v.router.ParentSettled(c, jsonrpc.IntID(id))
	}
}

// close ends the generation and closes the store.
func (v *Services) close() {
	v.mu.Lock()
	c := v.caller
	v.mu.Unlock()
	if c != nil {
		v.router.GenerationEnded(c)
	}
	_ = v.store.Close()
}

// stateDirFor is where a session's store lives, beside its scratch directory.
func stateDirFor(scratchRoot string) string { return filepath.Join(scratchRoot, "state") }

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
