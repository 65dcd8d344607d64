// Command mcp-go is the benchmark's MCP peer for Go: an echo tool (text "echo" plus
// structured {value}, the same observable result as the octet fixture's echo) and a
// crash tool, served over stdio with the official MCP Go SDK in its ordinary style.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Value string `json:"value"`
}

type echoOut struct {
	Value string `json:"value"`
}

type crashArgs struct {
	Code int `json:"code,omitempty"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench-mcp-go", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo the value"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, echoOut, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo"}}}, echoOut(in), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "exit at once without answering"},
		func(_ context.Context, _ *mcp.CallToolRequest, in crashArgs) (*mcp.CallToolResult, any, error) {
			code := in.Code
			if code == 0 {
				code = 3
			}
			os.Exit(code)
			return nil, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintf(os.Stderr, "mcp-go: %v\n", err)
		os.Exit(1)
	}
}
