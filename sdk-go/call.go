package octet

import (
	"context"
	"sort"
	"sync"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// callState is the ambient state of one host request being served.
type callState struct {
	id         jsonrpc.ID
	method     string
	owner      *protocol.ResourceOwner
	key        string     // the tool call's idempotency_key
	progressMu sync.Mutex // sequence and send together, so frames leave in order
	progress   int64      // last $/progress sequence sent for this parent
}

type callKey struct{}

// parents tracks the host requests currently being served, so an explicit
// parent_request_id (WithParent) can be checked and share the progress sequence.
type parents struct {
	mu     sync.Mutex
	active map[jsonrpc.ID]*callState
}

func (p *parents) init() { p.active = map[jsonrpc.ID]*callState{} }

func (p *parents) begin(st *callState) {
	p.mu.Lock()
	p.active[st.id] = st
	p.mu.Unlock()
}

func (p *parents) end(id jsonrpc.ID) {
	p.mu.Lock()
	delete(p.active, id)
	p.mu.Unlock()
}

func (p *parents) lookup(id jsonrpc.ID) *callState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.active[id]
}

type explicitParentKey struct{}

// WithParent names the host request that reverse calls made with the returned
// context belong to (parent_request_id). Handlers never need it: their ctx already
// carries their own request. Background goroutines serving a request use it.
func WithParent(ctx context.Context, id jsonrpc.ID) context.Context {
	return context.WithValue(ctx, explicitParentKey{}, id)
}

// RequestID returns the id of the host request ctx belongs to (the ambient request
// id), and false outside a handler.
func RequestID(ctx context.Context) (jsonrpc.ID, bool) {
	if st, ok := ctx.Value(callKey{}).(*callState); ok {
		return st.id, true
	}
	return jsonrpc.ID{}, false
}

// IdempotencyKey returns the idempotency key of the tool call ctx belongs to ("" when the
// caller gave none). The host replays a recorded result for a repeated key without calling
// again; a handler whose effect is not naturally idempotent derives its intent identity from
// the key (a retry after a crash between the effect and the host's record calls it again).
func IdempotencyKey(ctx context.Context) string {
	if st, ok := ctx.Value(callKey{}).(*callState); ok {
		return st.key
	}
	return ""
}

// Owner returns the resource owner the host sent with the request ctx belongs to
// (session, extension instance, process generation), or nil. Namespace per-session
// state by the whole triple; never accept an owner from the model.
func Owner(ctx context.Context) *protocol.ResourceOwner {
	if st, ok := ctx.Value(callKey{}).(*callState); ok {
		return st.owner
	}
	return nil
}

// parent resolves the parent request for a reverse call: an explicit WithParent
// id (which must be a request being served), else the ambient handler's request.
func (e *Extension) parent(ctx context.Context, what string) (*callState, error) {
	if id, ok := ctx.Value(explicitParentKey{}).(jsonrpc.ID); ok {
		st := e.parents.lookup(id)
		if st == nil {
			return nil, localError("%s: parent_request_id %s is not a host request this extension is serving", what, id)
		}
		return st, nil
	}
	if st, ok := ctx.Value(callKey{}).(*callState); ok {
		return st, nil
	}
	return nil, localError("%s needs a parent request: call it from a handler, or pass octet.WithParent(ctx, id)", what)
}

// wireID converts an id for a generated protocol type.
func wireID(id jsonrpc.ID) protocol.RequestID {
	if n, ok := id.Int(); ok {
		return protocol.RequestID{Integer: &n}
	}
	s := id.String()
	return protocol.RequestID{String: &s}
}

func sortStrings(s []string) { sort.Strings(s) }
