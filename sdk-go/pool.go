package octet

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// pool is the bounded worker pool behind an admission queue. The transport gives
// each request its own goroutine; the pool decides which of them may run: at most
// `workers` at once, at most `pending` more waiting (FIFO through the channel), the
// rest answered overloaded at once.
type pool struct {
	slots   chan struct{}
	waiting atomic.Int64
	pending int64

	stop     chan struct{} // closed by cancelAll: queued work gives up, running work is cancelled
	stopOnce sync.Once
	// cancelRunning ends the context every request handler's context derives from
	// (Serve's jsonrpc BaseContext), so running work needs no context of its own.
	cancelRunning context.CancelFunc

	mu     sync.Mutex
	active int // admitted: waiting or running
	// idle is closed when active drops to 0. It is made only when wait finds work
	// admitted, so a request served while nobody waits allocates no channel.
	idle chan struct{}
}

func newPool(workers, pending int, cancelRunning context.CancelFunc) *pool {
	if cancelRunning == nil {
		cancelRunning = func() {}
	}
	return &pool{
		slots:         make(chan struct{}, workers),
		pending:       int64(pending),
		stop:          make(chan struct{}),
		cancelRunning: cancelRunning,
	}
}

func (p *pool) enter() {
	p.mu.Lock()
	p.active++
	p.mu.Unlock()
}

func (p *pool) leave() {
	p.mu.Lock()
	p.active--
	if p.active == 0 && p.idle != nil {
		close(p.idle)
		p.idle = nil
	}
	p.mu.Unlock()
}

var errDrained = jsonrpc.NewError(protocol.CodeRequestCancelled, "request cancelled: the extension is shutting down", nil)

// run admits fn and runs it on a worker. decided is called once admission is decided:
// fn is counted by the pool (a drain waits for it), or refused overloaded.
func (p *pool) run(ctx context.Context, decided func(), fn func(ctx context.Context) (any, error)) (any, error) {
	select {
	case p.slots <- struct{}{}:
		p.enter()
		decided()
	default:
		if p.waiting.Add(1) > p.pending {
			p.waiting.Add(-1)
			decided()
			return nil, jsonrpc.NewError(protocol.CodeOverloaded,
				fmt.Sprintf("overloaded: all %d workers busy and %d requests queued", cap(p.slots), p.pending),
				map[string]int64{"limit": p.pending})
		}
		p.enter()
		decided()
		select {
		case p.slots <- struct{}{}:
			p.waiting.Add(-1)
		case <-ctx.Done():
			p.waiting.Add(-1)
			p.leave()
			if p.stopped() {
				return nil, errDrained // cancelAll ends ctx too
			}
			return nil, ctx.Err()
		case <-p.stop:
			p.waiting.Add(-1)
			p.leave()
			return nil, errDrained
		}
	}
	defer p.leave()
	defer func() { <-p.slots }()
	// ctx is already cancelled when cancelAll ran before this point: it cancels the
	// parent of every request's context.
	res, err := fn(ctx)
	if err != nil && ctx.Err() != nil && p.stopped() {
		// Cancelled by the drain. Had the host cancelled it too, the transport answers
		// request_cancelled whatever this returns.
		return nil, errDrained
	}
	return res, err
}

// stopped reports whether cancelAll has run.
func (p *pool) stopped() bool {
	select {
	case <-p.stop:
		return true
	default:
		return false
	}
}

// wait blocks until nothing is admitted or ctx ends.
func (p *pool) wait(ctx context.Context) bool {
	p.mu.Lock()
	if p.active == 0 {
		p.mu.Unlock()
		return true
	}
	if p.idle == nil {
		p.idle = make(chan struct{})
	}
	ch := p.idle
	p.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// cancelAll cancels running work and releases queued work.
func (p *pool) cancelAll() {
	p.stopOnce.Do(func() { close(p.stop) })
	p.cancelRunning()
}
