// Command octet-mcp-gateway serves the tools of octet extensions as one MCP server:
//
//	octet-mcp-gateway [--http 127.0.0.1:PORT] [--state DIR] [--script FILE] [--workspace DIR] DIR...
//
// It starts each extension directory in the reference host and speaks MCP on
// stdin/stdout, or, with --http, streamable HTTP on a loopback address (path /mcp).
// See docs/mcp.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/mcp/gateway"
)

func main() {
	os.Exit(run())
}

func run() int {
	fs := flag.NewFlagSet("octet-mcp-gateway", flag.ContinueOnError)
	addr := fs.String("http", "", "serve streamable HTTP on this loopback address (e.g. 127.0.0.1:8765) instead of stdio")
	state := fs.String("state", "", "state directory (default: a temporary one, removed on exit)")
	scriptPath := fs.String("script", "", "host script answering what the MCP client cannot (policy, secrets, input when the client has no elicitation)")
	workspace := fs.String("workspace", ".", "the extensions' workspace")
	version := fs.Bool("version", false, "print the version")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "Usage: octet-mcp-gateway [flags] DIR...\n\nServes the tools of the octet extensions in DIR... as one MCP server (stdio, or --http).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(os.Args[1:]); err != nil {
		return 2
	}
	if *version {
		fmt.Println("octet-mcp-gateway", gateway.Version)
		return 0
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	if *state == "" {
		d, err := os.MkdirTemp("", "octet-mcp-gateway-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(d)
		*state = d
	}
	var sc *script.Script
	if *scriptPath != "" {
		b, err := os.ReadFile(*scriptPath)
		if err == nil {
			sc, err = script.Parse(*scriptPath, b, ".")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
			return 2
		}
	}
	// The address is checked (and bound) before any extension starts.
	var ln net.Listener
	if *addr != "" {
		var err error
		if ln, err = listenLoopback(*addr); err != nil {
			fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
			return 2
		}
		defer ln.Close()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	g, err := gateway.Open(ctx, gateway.Options{
		Host: reference.Options{Host: host.Options{StateDir: *state, Workspace: *workspace}, Script: sc},
		Dirs: fs.Args(),
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
		return 1
	}
	defer g.Close()
	if *addr == "" {
		if err := g.Serve(ctx, &mcp.StdioTransport{}); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
			return 1
		}
		return 0
	}
	fmt.Fprintf(os.Stderr, "octet-mcp-gateway: serving MCP at http://%s/mcp\n", ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.Server() }, nil))
	srv := &http.Server{Handler: mux}
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
		return 1
	}
	return 0
}

// listenLoopback listens on addr only when its host is a loopback address: the gateway
// runs the user's extensions with the user's authority and has no authentication.
func listenLoopback(addr string) (net.Listener, error) {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: %v", addr, err)
	}
	if ip := net.ParseIP(h); h != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--http %q: the host must be loopback (127.0.0.1, ::1 or localhost)", addr)
	}
	return net.Listen("tcp", addr)
}
