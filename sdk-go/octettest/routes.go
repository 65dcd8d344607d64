package octettest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// The test host answers every method an extension sends through one table built from the
// generated descriptors: the params are validated with the schema's validators for the
// negotiated API version (so a test sees the refusals the real host gives), decoded into the
// descriptor's params type, and handed to a typed handler. Nothing here spells a wire name.

// route is one row: how to check and serve one method.
type route struct {
	notification bool
	serve        func(ctx context.Context, raw json.RawMessage) (any, error)
}

// request binds a typed handler to a request descriptor.
func request[P, R any](d protocol.RequestType[P, R], fn func(ctx context.Context, p P) (any, error)) (string, route) {
	return d.Method, route{serve: func(ctx context.Context, raw json.RawMessage) (any, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, invalid("%s params: %v", d.Method, err)
		}
		return fn(ctx, p)
	}}
}

// notification records a notification descriptor (its frames are in Host.Received).
func notification[P any](d protocol.NotificationType[P]) (string, route) {
	return d.Method, route{notification: true}
}

// routes is the table over every method an extension sends.
func (s *services) routes() map[string]route {
	t := map[string]route{}
	add := func(m string, r route) { t[m] = r }
	add(notification(protocol.NotifyNotification))
	add(notification(protocol.NotifyContextContribution))
	add(notification(protocol.NotifyStatusContribution))
	add(notification(protocol.NotifyPresentationUpdate))
	add(notification(protocol.NotifyProgress))
	add(request(protocol.RequestConfirmationRequest, s.confirm))
	add(request(protocol.RequestInputRequest, s.input))
	add(request(protocol.RequestSecretGet, s.secret))
	add(request(protocol.RequestPolicyEvaluate, s.policy))
	add(request(protocol.RequestArtifactPublish, s.publish))
	add(request(protocol.RequestToolsRegister, s.register))
	add(request(protocol.RequestToolsUnregister, s.unregister))
	add(request(protocol.RequestToolsReplace, s.replace))
	add(request(protocol.RequestAgentSpawn, s.spawn))
	add(request(protocol.RequestAgentMessage, s.accept))
	add(request(protocol.RequestAgentFollowUp, s.accept))
	add(request(protocol.RequestAgentModels, s.models))
	add(request(protocol.RequestAgentList, s.list))
	add(request(protocol.RequestAgentWait, s.wait))
	add(request(protocol.RequestAgentInterrupt, s.interrupt))
	add(request(protocol.RequestKVGet, s.kvGet))
	add(request(protocol.RequestKVList, s.kvList))
	add(request(protocol.RequestKVCommit, s.kvCommit))
	return t
}

// handle validates a request's params with the schema (the type methods.json names for the
// session's API version) and serves it through its route.
func (s *services) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	r, ok := s.table[req.Method]
	if !ok {
		return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, "method not found: "+req.Method, map[string]string{"method": req.Method})
	}
	if r.notification || req.IsNotification() {
		return nil, nil // recorded by the frame tap; see Host.Received
	}
	info, _ := protocol.LookupMethod(req.Method)
	typ := info.Params[s.host.opts.APIVersion]
	if typ == "" {
		return nil, jsonrpc.NewError(protocol.CodeMethodNotFound, fmt.Sprintf("%s is not in API %s", req.Method, s.host.opts.APIVersion), nil)
	}
	raw := req.Params
	if raw == nil {
		raw = json.RawMessage("{}")
	}
	doc, err := strictjson.Parse(raw)
	if err == nil {
		err = protocol.Validate(typ, doc)
	}
	if err != nil {
		return nil, invalid("invalid params: %v", err)
	}
	return r.serve(ctx, raw)
}
