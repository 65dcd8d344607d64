package host

import (
	"context"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// stop ends g within bounds: stop admission, drain in-flight calls up to ShutdownDrain,
// cancel the rest, send shutdown, close stdin, then SIGTERM and SIGKILL to the process group and its
// descendants. It returns once the process is reaped and none of its descendants survives.
func (g *generation) stop(reason string) {
	o := &g.ext.host.opts
	// A candidate that is never installed refuses what waits for it: a notification
	// parked in handle() would hold the shutdown answer behind it (ordered delivery).
	g.markReady(false)
	g.intentional.Store(true)
	g.mu.Lock()
	g.closing = true
	var idle chan struct{}
	if len(g.inflight) > 0 {
		idle = make(chan struct{})
		g.idle = idle
	}
	g.mu.Unlock()

	if idle != nil {
		select {
		case <-idle:
		case <-g.ended:
		case <-time.After(o.ShutdownDrain):
			g.mu.Lock()
			for c := range g.inflight {
				c.shutdown.Store(true)
				c.cancel()
			}
			g.mu.Unlock()
		}
	}

	select {
	case <-g.ended:
	default:
		g.proc.Snapshot() // while the leader lives, its tree names every descendant
		g.settleLifecycle()
		ctx, cancel := context.WithTimeout(context.Background(), o.TermGrace)
		deadline := o.TermGrace.Milliseconds()
		params, _ := encodeHostParams(protocol.MethodShutdown, &protocol.ShutdownParams{Reason: &reason, DeadlineMS: &deadline})
		_ = g.conn.Call(ctx, protocol.MethodShutdown, params, nil)
		cancel()
		_ = g.conn.Close() // closes stdin: the SDKs exit on EOF
		select {
		case <-g.proc.Done():
		case <-time.After(o.TermGrace / 2):
		}
		g.proc.Stop(o.TermGrace)
	}
	<-g.ended // watch has killed every descendant (process.KillFamily) before ended closes
}
