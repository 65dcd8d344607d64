package jsonrpc

import (
	"context"
	"fmt"
	"sync"
)

// Mux routes requests to handlers by method name. Its Serve method is a Handler;
// an unregistered method is answered method_not_found (-32601) with data {method}.
type Mux struct {
	mu       sync.RWMutex
	handlers map[string]Handler
}

// NewMux returns an empty Mux.
func NewMux() *Mux { return &Mux{handlers: make(map[string]Handler)} }

// Handle registers h for method, replacing any earlier handler.
func (m *Mux) Handle(method string, h Handler) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.handlers[method] = h
}

// Serve dispatches req to its method's handler.
func (m *Mux) Serve(ctx context.Context, req *Request) (any, error) {
	m.mu.RLock()
	h := m.handlers[req.Method]
	m.mu.RUnlock()
	if h == nil {
		return nil, methodNotFound(req.Method)
	}
	return h(ctx, req)
}

func methodNotFound(method string) *Error {
	return NewError(CodeMethodNotFound, fmt.Sprintf("method not found: %q", method), map[string]string{"method": method})
}
