// Package shared is the contract between the benchmark's go-plugin peer and the
// harness: one gRPC method carrying the same JSON tool call the octet wire carries
// ({name, arguments} in, a tool result out), so both transports move the same bytes.
//
// protoc is not part of the toolchain, so the service is described by hand with a
// grpc.ServiceDesc over protobuf BytesValue, the same approach as the transport
// prototype the seeds report on.
package shared

import (
	"context"

	"github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Handshake is the go-plugin handshake both sides must agree on.
var Handshake = plugin.HandshakeConfig{
	ProtocolVersion:  1,
	MagicCookieKey:   "OCTET_BENCH_PLUGIN",
	MagicCookieValue: "echo",
}

// PluginName is the name the harness dispenses.
const PluginName = "tools"

// Tools serves one JSON-encoded tool call and returns the JSON-encoded result.
type Tools interface {
	Call(ctx context.Context, request []byte) ([]byte, error)
}

const callMethod = "/octet.bench.Tools/Call"

var serviceDesc = grpc.ServiceDesc{
	ServiceName: "octet.bench.Tools",
	HandlerType: (*Tools)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Call", Handler: callHandler}},
	Metadata:    "hand-written (no .proto)",
}

func callHandler(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	in := new(wrapperspb.BytesValue)
	if err := dec(in); err != nil {
		return nil, err
	}
	call := func(ctx context.Context, req any) (any, error) {
		out, err := srv.(Tools).Call(ctx, req.(*wrapperspb.BytesValue).GetValue())
		if err != nil {
			return nil, err
		}
		return wrapperspb.Bytes(out), nil
	}
	if interceptor == nil {
		return call(ctx, in)
	}
	return interceptor(ctx, in, &grpc.UnaryServerInfo{Server: srv, FullMethod: callMethod}, call)
}

// Plugin is the go-plugin glue for Tools over gRPC only.
type Plugin struct {
	plugin.NetRPCUnsupportedPlugin
	Impl Tools // set on the plugin side only
}

// GRPCServer registers the implementation.
func (p *Plugin) GRPCServer(_ *plugin.GRPCBroker, s *grpc.Server) error {
	s.RegisterService(&serviceDesc, p.Impl)
	return nil
}

// GRPCClient returns a Tools that calls the plugin.
func (p *Plugin) GRPCClient(_ context.Context, _ *plugin.GRPCBroker, c *grpc.ClientConn) (any, error) {
	return client{c}, nil
}

type client struct{ conn *grpc.ClientConn }

func (c client) Call(ctx context.Context, request []byte) ([]byte, error) {
	out := new(wrapperspb.BytesValue)
	if err := c.conn.Invoke(ctx, callMethod, wrapperspb.Bytes(request), out); err != nil {
		return nil, err
	}
	return out.GetValue(), nil
}
