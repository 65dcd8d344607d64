// Command testserver is an MCP server on the official MCP Go SDK that the bridge's tests
// steer: it adds tools at run time (tools/list_changed), crashes on request, can publish
// a tool whose schema octet refuses, and reports cancellation. Tests build and run it;
// the servers from npm and PyPI cover the behaviour of code written elsewhere.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type nameArgs struct {
	Name string `json:"name"`
}

type sizeArgs struct {
	Size int `json:"size"`
}

type waitArgs struct {
	Marker string `json:"marker"`
}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "octet-testserver", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Answer name (the benchmarks' call)"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a nameArgs) (*mcp.CallToolResult, any, error) {
			return text(a.Name), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "big_image", Description: "Answer a PNG of size bytes (a signature and padding)"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a sizeArgs) (*mcp.CallToolResult, any, error) {
			data := make([]byte, a.Size)
			copy(data, "\x89PNG\r\n\x1a\n")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: data, MIMEType: "image/png"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "env_len", Description: "Answer the length of environment variable name (never its value)"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a nameArgs) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprintf("len=%d", len(os.Getenv(a.Name)))), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "log", Description: "Send name as a warning log message, then answer"},
		func(ctx context.Context, req *mcp.CallToolRequest, a nameArgs) (*mcp.CallToolResult, any, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "testserver", Data: a.Name})
			return text("logged"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add_tool", Description: "Add a tool named name that answers its own name"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a nameArgs) (*mcp.CallToolResult, any, error) {
			name := a.Name
			s.AddTool(&mcp.Tool{Name: name, Description: "added at run time", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return text("I am " + name), nil
				})
			return text("added " + name), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "remove_tool", Description: "Remove the tool named name"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a nameArgs) (*mcp.CallToolResult, any, error) {
			s.RemoveTools(a.Name)
			return text("removed " + a.Name), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "break_catalog", Description: "Add a tool whose input schema octet refuses"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			s.AddTool(&mcp.Tool{Name: "broken", InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"no-such-type"}}}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return text("unreachable"), nil
				})
			return text("broken"), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exit the process at once"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "wait_cancel", Description: "Report progress, then wait until cancelled and write marker"},
		func(ctx context.Context, req *mcp.CallToolRequest, a waitArgs) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "waiting"})
			}
			select {
			case <-ctx.Done():
				_ = os.WriteFile(a.Marker, []byte("cancelled"), 0o644)
				return nil, nil, ctx.Err()
			case <-time.After(time.Minute):
				return text("not cancelled"), nil, nil
			}
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Answer a tool error (isError)"},
		func(ctx context.Context, _ *mcp.CallToolRequest, a nameArgs) (*mcp.CallToolResult, any, error) {
			r := text("failed: " + a.Name)
			r.IsError = true
			return r, nil, nil
		})
	if len(os.Args) > 2 && os.Args[1] == "-http" {
		// Streamable HTTP on a loopback port; the address goes to stdout, one line.
		ln, err := net.Listen("tcp", os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("http://%s/mcp\n", ln.Addr())
		mux := http.NewServeMux()
		mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		fmt.Fprintln(os.Stderr, (&http.Server{Handler: mux}).Serve(ln))
		os.Exit(1)
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
