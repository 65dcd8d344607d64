// Package mcpprofile profiles the MCP Go SDK's client calling its own server in one
// process, to tell the MCP client's cost from the servers' when reading the
// benchmark's MCP rows. Run:
//
//	go test ./internal/mcpprofile -bench . -cpuprofile /tmp/mcp.prof
package mcpprofile

import (
	"context"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Value string `json:"value"`
}

func session(b *testing.B) *mcp.ClientSession {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, echoArgs, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, in, nil
		})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "0.1.0"}, nil)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	return cs
}

var params = &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"value": "octet-bench-0123456789"}}

func BenchmarkSequential(b *testing.B) {
	cs := session(b)
	defer cs.Close()
	for i := 0; i < b.N; i++ {
		if _, err := cs.CallTool(context.Background(), params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkInFlight32(b *testing.B) {
	cs := session(b)
	defer cs.Close()
	var wg sync.WaitGroup
	per := b.N/32 + 1
	for w := 0; w < 32; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if _, err := cs.CallTool(context.Background(), params); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
