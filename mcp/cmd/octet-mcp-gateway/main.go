// Command octet-mcp-gateway serves the tools of octet extensions as one MCP server:
//
//	octet-mcp-gateway [--http 127.0.0.1:PORT [--token-file FILE | --token-env NAME] [--allow-origin URL]...]
//	                  [--state DIR] [--script FILE] [--workspace DIR] DIR...
//
// It starts each extension directory in the reference host and speaks MCP on
// stdin/stdout, or, with --http, streamable HTTP on a loopback address (path /mcp),
// answering only requests with the bearer token (generated and printed once to stderr
// unless the operator names one) and no foreign Origin. See docs/mcp.md.
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
	"strings"
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
	maxMessage := fs.Int("max-message", gateway.DefaultMaxMessage, "stdio: the longest message (line) a client may send, in bytes; a longer one is answered -32600 and discarded")
	tokenFile := fs.String("token-file", "", "--http: read the bearer token from this file's first line (default: generate one and print it once to stderr)")
	tokenEnv := fs.String("token-env", "", "--http: read the bearer token from this environment variable")
	var origins originList
	fs.Var(&origins, "allow-origin", "--http: also accept requests with this Origin (exactly, e.g. http://localhost:6274); repeatable")
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
	// The address and token are checked (and the address bound) before any extension
	// starts.
	var ln net.Listener
	var token string
	if *addr != "" {
		var err error
		if token, err = gateway.TokenFrom(*tokenFile, *tokenEnv); err != nil {
			fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
			return 2
		}
		if ln, err = listenLoopback(*addr); err != nil {
			fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
			return 2
		}
		defer ln.Close()
	} else if *tokenFile != "" || *tokenEnv != "" || len(origins) > 0 {
		fmt.Fprintln(os.Stderr, "octet-mcp-gateway: --token-file, --token-env and --allow-origin apply to --http only")
		return 2
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
		if err := g.Serve(ctx, &gateway.LineTransport{In: os.Stdin, Out: os.Stdout, MaxMessage: *maxMessage}); err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
			return 1
		}
		return 0
	}
	if token == "" {
		// Printed once, here, for the operator to hand to the client.
		token = gateway.NewToken()
		fmt.Fprintf(os.Stderr, "octet-mcp-gateway: bearer token %s\n", token)
	}
	fmt.Fprintf(os.Stderr, "octet-mcp-gateway: serving MCP at http://%s/mcp\n", ln.Addr())
	guard := &gateway.HTTPGuard{Token: token, Addr: ln.Addr().String(), AllowOrigins: origins}
	mux := http.NewServeMux()
	mux.Handle("/mcp", guard.Wrap(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.Server() }, nil)))
	srv := &http.Server{Handler: mux}
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "octet-mcp-gateway:", err)
		return 1
	}
	return 0
}

// originList is the repeatable --allow-origin flag.
type originList []string

func (o *originList) String() string { return strings.Join(*o, ",") }

func (o *originList) Set(v string) error {
	if v == "null" || v == "*" {
		return fmt.Errorf("%q cannot be allowed: name an origin such as http://localhost:6274", v)
	}
	*o = append(*o, v)
	return nil
}

// listenLoopback listens on addr only when its host is a loopback address: the gateway
// runs the user's extensions with the user's authority, and a token alone is no reason
// to accept the network.
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
