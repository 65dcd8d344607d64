// Command plugin is the benchmark's go-plugin peer: the echo and crash tools served
// over gRPC by hashicorp/go-plugin, decoding and encoding the same JSON as the octet
// wire so the comparison is between transports, not payloads.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"

	"github.com/octet-kit/octet/bench/peers/goplugin/shared"
)

type call struct {
	Name      string `json:"name"`
	Arguments struct {
		Value json.RawMessage `json:"value"`
		Code  int             `json:"code"`
	} `json:"arguments"`
}

type tools struct{}

func (tools) Call(_ context.Context, request []byte) ([]byte, error) {
	var c call
	if err := json.Unmarshal(request, &c); err != nil {
		return nil, fmt.Errorf("tool call: %w", err)
	}
	switch c.Name {
	case "echo":
		return json.Marshal(map[string]any{
			"content":            []any{map[string]any{"type": "text", "text": "echo"}},
			"structured_content": map[string]any{"value": c.Arguments.Value},
		})
	case "crash":
		code := c.Arguments.Code
		if code == 0 {
			code = 3
		}
		os.Exit(code)
	}
	return nil, fmt.Errorf("plugin has no tool %q", c.Name)
}

func main() {
	plugin.Serve(&plugin.ServeConfig{
		HandshakeConfig: shared.Handshake,
		Plugins:         plugin.PluginSet{shared.PluginName: &shared.Plugin{Impl: tools{}}},
		GRPCServer:      plugin.DefaultGRPCServer,
		Logger:          hclog.NewNullLogger(),
	})
}
