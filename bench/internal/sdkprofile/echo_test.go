// Package sdkprofile profiles the Go SDK's echo hot path in one process: an
// Extension built like the conformance fixture's echo, served over OS pipes, and a
// host-side sdk-go/jsonrpc connection calling it. Run:
//
//	go test ./internal/sdkprofile -bench . -cpuprofile /tmp/sdk.prof
//	go tool pprof -top /tmp/sdk.prof
package sdkprofile

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func BenchmarkEcho(b *testing.B) {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "echo", Description: "Echo a value as structured content"},
		func(ctx context.Context, a struct {
			Value any `json:"value"`
		}) (octet.Result, error) {
			return octet.Text("echo").WithStructured(map[string]any{"value": a.Value}), nil
		})
	hostToExt, extIn, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	extOut, extToHost, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = ext.Serve(ctx, hostToExt, extToHost) }()
	conn := jsonrpc.NewConn(extOut, extIn, jsonrpc.Options{Handler: func(context.Context, *jsonrpc.Request) (any, error) { return nil, nil }})
	defer conn.Close()
	manifest := json.RawMessage(`{"name":"bench-echo","version":"0.1.0","api_version":"0.4","entrypoint":{"command":"x"},"contributes":{"tools":["echo"]}}`)
	init := map[string]any{
		"api_version": "0.4", "octet_version": "0.1.0",
		"extension": map[string]any{"name": "bench-echo", "version": "0.1.0", "dir": "/", "manifest_path": "/extension.toml", "source": "explicit"},
		"manifest":  manifest,
		"workspace": map[string]any{"root": "/", "trusted": true},
		"protocol": map[string]any{"version": "0.4", "required_features": []string{"request_cancellation", "content_parts"},
			"optional_features": []string{}, "limits": map[string]any{"max_concurrent_requests": 64}},
	}
	if err := conn.Call(ctx, "initialize", init, nil); err != nil {
		b.Fatal(err)
	}
	args := map[string]any{"name": "echo", "arguments": map[string]any{"value": "octet-bench-0123456789"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var res json.RawMessage
		if err := conn.Call(ctx, "tool/call", args, &res); err != nil {
			b.Fatal(err)
		}
	}
}
