package octet

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// connection is the runtime's link to the host: the JSON-RPC transport (which knows nothing
// of the protocol above it), the generated dispatch table it routes through, the worker
// pool and admission queue, the host requests in flight (parents of reverse calls) and the
// shutdown state.
type connection struct {
	conn        *jsonrpc.Conn
	connSet     chan struct{}                                   // closed once conn is assigned (handlers start before that)
	routes      map[string]protocol.HostRoute[*jsonrpc.Request] // generated dispatch table (hostmethods.go)
	served      atomic.Bool
	pool        *pool
	cancelWork  context.CancelFunc // ends every request handler's context (Serve's BaseContext)
	parents     parents
	arrivals    arrivals // admission decided, by arrival order (admission.go)
	shutting    atomic.Bool
	shutdownRun sync.Once
	stopped     chan struct{} // closed once the shutdown handler has finished
}

// ready returns the session, failing before initialize.
func (e *Extension) ready(what string) (*session, error) {
	s := e.session.Load()
	if s == nil || e.conn == nil {
		return nil, fmt.Errorf("octet: %s before initialize", what)
	}
	return s, nil
}
