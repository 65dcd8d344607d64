package octet

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// handle is the transport's Handler: it routes host requests and notifications.
func (e *Extension) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	<-e.connSet
	switch req.Method {
	case protocol.MethodToolCall, protocol.MethodCommandExecute, protocol.MethodHookRun,
		protocol.MethodContextCollect, protocol.MethodStatusCollect, protocol.MethodToolRender:
		return e.work(ctx, req) // passes once admitted or refused
	}
	e.arrivals.pass(req.Seq) // nothing else is admitted through the pool
	switch req.Method {
	case protocol.MethodInitialize:
		return e.initialize(ctx, req)
	case protocol.MethodShutdown:
		return e.shutdownRequest(ctx, req)
	}
	for _, m := range lifecycleMethods {
		if req.Method == m && req.IsNotification() {
			e.observe(ctx, req)
			return nil, nil
		}
	}
	return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, fmt.Sprintf("method not found: %q", req.Method), map[string]string{"method": req.Method})
}

// work admits a contribution request through the pool and runs its handler with
// the ambient request state in ctx.
func (e *Extension) work(ctx context.Context, req *jsonrpc.Request) (any, error) {
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
	if req.Method != protocol.MethodToolCall && bytes.Contains(req.Params, []byte(`"resource_owner"`)) {
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
			st.owner = tc.owner
		}
		e.parents.begin(st)
		defer e.parents.end(st.id)
		ctx = context.WithValue(ctx, callKey{}, st)
		res, err := e.serve(ctx, s, req, tc)
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

// checkParams validates a host request's params against the schema type the
// method registry names for the negotiated version (unknown fields, bounds,
// patterns), so handlers only ever see well-formed params.
func checkParams(apiVersion string, req *jsonrpc.Request) error {
	info, ok := protocol.LookupMethod(req.Method)
	if !ok {
		return nil
	}
	typeName := info.Params[apiVersion]
	if typeName == "" {
		return nil
	}
	raw := req.Params
	if raw == nil {
		raw = json.RawMessage("{}")
	}
	doc, err := strictjson.Parse(raw)
	if err == nil {
		err = protocol.Validate(typeName, doc)
	}
	if err != nil {
		return invalidParams("", "%s params: %v", req.Method, err)
	}
	return nil
}

// serve runs one contribution handler; tc is the decoded params of a tool/call.
func (e *Extension) serve(ctx context.Context, s *session, req *jsonrpc.Request, tc *toolCall) (any, error) {
	if tc != nil {
		if tc.revision != nil && !s.features["dynamic_tools"] && *tc.revision != 0 {
			return nil, invalidParams("/catalog_revision", "catalog revision %d is unknown: dynamic_tools was not negotiated", *tc.revision)
		}
		t, err := e.catalog.lookup(tc.name, tc.revision)
		if err != nil {
			return nil, err
		}
		return e.invokeTool(ctx, t, s.apiVersion, tc)
	}
	if err := checkParams(s.apiVersion, req); err != nil {
		return nil, err
	}
	switch req.Method {
	case protocol.MethodCommandExecute:
		var p protocol.CommandExecuteParams
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, invalidParams("", "command/execute params: %v", err)
		}
		for _, c := range e.commands {
			if c.name == p.Name {
				args := p.Arguments
				if args == nil {
					args = []string{}
				}
				return c.fn(ctx, args)
			}
		}
		return nil, invalidParams("/name", "command %q is not served by this extension", p.Name)

	case protocol.MethodHookRun:
		var p struct {
			Hook    string          `json:"hook"`
			Payload json.RawMessage `json:"payload"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, invalidParams("", "hook/run params: %v", err)
		}
		h := e.hooks[p.Hook]
		if h == nil {
			return nil, invalidParams("/hook", "hook %q is not served by this extension", p.Hook)
		}
		return h(ctx, p.Payload)

	case protocol.MethodContextCollect:
		if e.context == nil {
			return nil, invalidParams("", "this extension contributes no context")
		}
		items, err := e.context(ctx, req.Params)
		if err != nil {
			return nil, err
		}
		if items == nil {
			items = []ContextItem{}
		}
		return map[string]any{"items": items}, nil

	case protocol.MethodStatusCollect:
		var p struct {
			Surface string `json:"surface"`
		}
		_ = json.Unmarshal(req.Params, &p)
		h := e.statuses[p.Surface]
		if h == nil {
			return nil, invalidParams("/surface", "surface %q is not served by this extension", p.Surface)
		}
		res, err := h(ctx, req.Params)
		if err != nil {
			return nil, err
		}
		if res.Surface == "" {
			res.Surface = p.Surface
		}
		return res, nil

	case protocol.MethodToolRender:
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		h := e.renderers[p.Name]
		if h == nil {
			return nil, invalidParams("/name", "no renderer for tool %q", p.Name)
		}
		segs, err := h(ctx, req.Params)
		if err != nil {
			return nil, err
		}
		if segs == nil {
			segs = []Segment{}
		}
		return map[string]any{"segments": segs}, nil
	}
	return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, "method not found", nil)
}

// observe delivers a lifecycle notification to its subscribers (in order: the
// transport delivers notifications one at a time).
func (e *Extension) observe(ctx context.Context, req *jsonrpc.Request) {
	if !e.HasFeature("lifecycle_events") {
		return
	}
	ev := LifecycleEvent{Method: req.Method, Raw: req.Params}
	if err := json.Unmarshal(req.Params, &ev); err != nil {
		e.log.Warn("malformed lifecycle event", "method", req.Method, "err", err.Error())
		return
	}
	ev.Method = req.Method
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
}
