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
	timeout := g.ext.host.opts.RequestTimeout
	select {
	case g.sem <- struct{}{}:
		// A free slot, the common case: the request timeout's context is the only one the
		// call needs, and stopping the generation cancels it directly.
		tctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
		call := &inflightCall{cancel: cancel}
		defer func() { <-g.sem }()
		if err := g.admit(call); err != nil {
			cancel()
			return err
		}
		defer g.finish(call)
		return g.send(ctx, tctx, call, method, params, result)
	default:
	}
	// Every slot is taken: the wait is cancellable by the caller and by stopping the
	// generation; the request timeout starts once a slot is free.
	cctx, cancel := context.WithCancel(ctx)
	call := &inflightCall{cancel: cancel}
	if err := g.admit(call); err != nil {
		cancel()
		return err
	}
	defer g.finish(call)
	select {
	case g.sem <- struct{}{}:
		defer func() { <-g.sem }()
	case <-cctx.Done():
		return g.ctxError(ctx, call, method)
	case <-g.ended:
		return g.transportError()
	}
	tctx, tcancel := context.WithTimeoutCause(cctx, timeout, errTimeout)
	defer tcancel()
	return g.send(ctx, tctx, call, method, params, result)
}

// admit registers call as in flight, or refuses it once the generation stopped admitting.
func (g *generation) admit(call *inflightCall) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closing {
		return &UnavailableError{Extension: g.manifest.Name, State: "shutting_down", Reason: "generation " + fmt.Sprint(g.number) + " stopped admitting calls"}
	}
	g.inflight[call] = struct{}{}
	return nil
}

// send makes the call holding a slot; tctx carries the request timeout (errTimeout as its
// cause) and ends too when the caller's ctx ends or the generation cancels call.
func (g *generation) send(ctx, tctx context.Context, call *inflightCall, method string, params any, result any) (err error) {
	if ownerMethods[method] && g.manifest.APIVersion != "0.1" {
		params = bindOwner(params, g.owner())
		g.issued.Store(true)
	}
	wire, err := encodeHostParams(method, params)
	if err != nil {
		return err
	}
	d, err := g.beginDelivery(ctx, method, params, wire)
	if err != nil {
		return err
	}
	if d != nil {
		start := time.Now()
		tctx = jsonrpc.WithSentID(tctx, d.Written)
		defer func() { d.Final(receipt(err, result, time.Since(start))) }()
	}
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
		if context.Cause(tctx) == errTimeout && ctx.Err() == nil && !call.shutdown.Load() {
			return &TimeoutError{Extension: g.manifest.Name, Method: method, After: g.ext.host.opts.RequestTimeout.String()}
		}
		return g.ctxError(ctx, call, method)
	}
	return err
}

var errTimeout = errors.New("request timeout")

func (g *generation) ctxError(parent context.Context, call *inflightCall, method string) error {
	if parent.Err() != nil {
		return parent.Err()
	}
	if call.shutdown.Load() {
		return &UnavailableError{Extension: g.manifest.Name, State: "shutting_down", Reason: method + " " + errShutdownCancel.Error()}
	}
	return context.Canceled
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
	call.cancel()
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
