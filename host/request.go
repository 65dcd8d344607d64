package host

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// request sends one host request, bounded by the request timeout and the negotiated
// concurrency, and turns failures into TimeoutError, TransportError or *jsonrpc.Error.
// params is the method's generated params type (encoded by its AppendJSON, see
// encodeHostParams) or, from the untyped Extension.Request, a map.
func (g *generation) request(ctx context.Context, method string, params any, result any) error {
	g.mu.Lock()
	if g.closing {
		g.mu.Unlock()
		return &UnavailableError{Extension: g.manifest.Name, State: "shutting_down", Reason: "generation " + fmt.Sprint(g.number) + " stopped admitting calls"}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	call := &inflightCall{cancel: cancel}
	g.inflight[call] = struct{}{}
	g.mu.Unlock()
	defer g.finish(call)

	select {
	case g.sem <- struct{}{}:
		defer func() { <-g.sem }()
	case <-cctx.Done():
		return g.ctxError(ctx, cctx, method)
	case <-g.ended:
		return g.transportError()
	}
	if ownerMethods[method] && g.manifest.APIVersion != "0.1" {
		params = bindOwner(params, g.owner())
		g.issued.Store(true)
	}
	wire, err := encodeHostParams(method, params)
	if err != nil {
		return err
	}
	timeout := g.ext.host.opts.RequestTimeout
	tctx, tcancel := context.WithTimeoutCause(cctx, timeout, errTimeout)
	defer tcancel()
	err = g.conn.Call(tctx, method, wire, result)
	var we *jsonrpc.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &we):
		return err // an answer, even one that raced the timeout, is the outcome
	case errors.Is(err, jsonrpc.ErrTransport):
		return g.transportError()
	case tctx.Err() != nil:
		if context.Cause(tctx) == errTimeout && ctx.Err() == nil && cctx.Err() == nil {
			return &TimeoutError{Extension: g.manifest.Name, Method: method, After: timeout.String()}
		}
		return g.ctxError(ctx, cctx, method)
	}
	return err
}

var errTimeout = errors.New("request timeout")

func (g *generation) ctxError(parent, own context.Context, method string) error {
	if parent.Err() != nil {
		return parent.Err()
	}
	if errors.Is(context.Cause(own), errShutdownCancel) {
		return &UnavailableError{Extension: g.manifest.Name, State: "shutting_down", Reason: method + " " + errShutdownCancel.Error()}
	}
	return own.Err()
}

// transportError describes the dead connection, waiting (bounded) for the exit status so the
// error says "exited with code 3" rather than only "connection closed". The bound is the
// start path's: with only 500 ms a crash on a loaded machine was sometimes still "running".
func (g *generation) transportError() error {
	select {
	case <-g.proc.Done():
	case <-time.After(exitStatusWait):
	}
	reason := g.proc.ExitDescription()
	if cerr := g.conn.Err(); cerr != nil && (reason == "running" || strings.Contains(cerr.Error(), "protocol error")) {
		reason = cerr.Error()
	}
	return &TransportError{Extension: g.manifest.Name, Reason: reason, Stderr: g.proc.StderrTail()}
}

func (g *generation) finish(call *inflightCall) {
	call.cancel(nil)
	g.mu.Lock()
	delete(g.inflight, call)
	if g.closing && len(g.inflight) == 0 && g.idle != nil {
		close(g.idle)
		g.idle = nil
	}
	g.mu.Unlock()
}

// dead reports whether the process or its connection has ended.
func (g *generation) dead() bool {
	select {
	case <-g.conn.Done():
		return true
	case <-g.proc.Done():
		return true
	default:
		return false
	}
}

// pending is the number of host calls in progress.
func (g *generation) pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.inflight)
}
