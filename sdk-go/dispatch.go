package octet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// handle is the transport's Handler: it routes host requests and notifications by the
// generated dispatch table (protocol.NewHostRoutes over hostMethods), so a method the schema
// adds without a handler here fails to compile.
func (e *Extension) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	<-e.connSet
	route, ok := e.routes[req.Method]
	if ok && route.Dispatch == protocol.DispatchWork {
		return e.work(ctx, req, route) // passes once admitted or refused
	}
	e.arrivals.pass(req.Seq) // nothing else is admitted through the pool
	if !ok || route.Notification != req.IsNotification() || route.Dispatch == protocol.DispatchCancel {
		// $/cancelRequest is the transport's; a notification sent as a request (or the
		// reverse) has no handler.
		return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, fmt.Sprintf("method not found: %q", req.Method), map[string]string{"method": req.Method})
	}
	return route.Serve(ctx, req)
}

// work admits a contribution request through the pool and runs its handler with
// the ambient request state in ctx.
func (e *Extension) work(ctx context.Context, req *jsonrpc.Request, route protocol.HostRoute[*jsonrpc.Request]) (any, error) {
	s := e.session.Load()
	if s == nil {
		e.arrivals.pass(req.Seq)
		return nil, jsonrpc.NewError(protocol.CodeInvalidRequest, fmt.Sprintf("%s before initialize", req.Method), nil)
	}
	if req.IsNotification() {
		return nil, nil // a contribution request sent as a notification has nobody to answer
	}
	// A shutdown (or EOF) stops admission only once every request read before it has
	// passed here (arrivals), so this refuses only requests read after it.
	if e.shutting.Load() {
		e.arrivals.pass(req.Seq)
		return nil, jsonrpc.NewError(protocol.CodeShuttingDown, "shutting down: no new requests are admitted", nil)
	}
	st := &callState{id: req.ID, method: req.Method}
	if req.Method != protocol.MethodToolCall && route.OwnerBound && bytes.Contains(req.Params, []byte(`"resource_owner"`)) {
		var head struct {
			ResourceOwner *protocol.ResourceOwner `json:"resource_owner"`
		}
		_ = json.Unmarshal(req.Params, &head)
		st.owner = head.ResourceOwner
	}
	return e.pool.run(ctx, func() { e.arrivals.pass(req.Seq) }, func(ctx context.Context) (any, error) {
		var tc *toolCall
		if req.Method == protocol.MethodToolCall {
			// Parsed once here, after admission (so a full queue still answers
			// overloaded first) and before the request is visible to WithParent
			// lookups, which read st.owner.
			var err error
			if tc, err = decodeToolCall(s.apiVersion, req.Params); err != nil {
				return nil, err
			}
			st.owner, st.key = tc.owner, tc.key
		}
		e.parents.begin(st)
		defer e.parents.end(st.id)
		ctx = context.WithValue(ctx, callKey{}, st)
		res, err := e.serve(ctx, s, req, tc, route)
		if err != nil && !isWireError(err) {
			// An uncaught handler error: its message goes on the wire as -32603,
			// the detail stays in the log.
			e.log.Error("handler failed", "method", req.Method, "id", req.ID.String(), "err", err.Error())
		}
		return res, err
	})
}

func isWireError(err error) bool {
	var we *jsonrpc.Error
	return errors.As(err, &we)
}

// serve runs one contribution handler; tc is the decoded params of a tool/call (the hot
// path: decoded once, without the generic validator).
func (e *Extension) serve(ctx context.Context, s *session, req *jsonrpc.Request, tc *toolCall, route protocol.HostRoute[*jsonrpc.Request]) (any, error) {
	if tc != nil {
		if tc.revision != nil && !s.features[string(protocol.FeatureDynamicTools)] && *tc.revision != 0 {
			return nil, invalidParams("/catalog_revision", "catalog revision %d is unknown: dynamic_tools was not negotiated", *tc.revision)
		}
		t, err := e.catalog.lookup(tc.name, tc.revision)
		if err != nil {
			return nil, err
		}
		return e.invokeTool(ctx, t, s.apiVersion, tc)
	}
	// The other host methods are not on the hot path: the table's generated validator checks
	// their params (unknown fields, bounds, patterns), so handlers only see well-formed params.
	if err := route.CheckParams(s.apiVersion, req.Params); err != nil {
		return nil, invalidParams("", "%s params: %v", req.Method, err)
	}
	return route.Serve(ctx, req)
}

// observe delivers a lifecycle notification to its subscribers (in order: the
// transport delivers notifications one at a time).
func (e *Extension) observe(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if !e.HasFeature(string(protocol.FeatureLifecycleEvents)) {
		return nil, nil
	}
	ev := LifecycleNotification{Raw: req.Params}
	if err := json.Unmarshal(req.Params, &ev); err != nil {
		e.log.Warn("malformed lifecycle event", "method", req.Method, "err", err.Error())
		return nil, nil
	}
	ev.Method = protocol.LifecycleEvent(req.Method)
	for _, fn := range e.lifecycle[req.Method] {
		func() {
			defer func() {
				if p := recover(); p != nil {
					e.log.Error("lifecycle handler panicked", "method", req.Method, "panic", fmt.Sprint(p))
				}
			}()
			fn(ctx, ev)
		}()
	}
	return nil, nil
}
