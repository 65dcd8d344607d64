// Package target names what the benchmark measures (a floor, an octet SDK, an MCP
// SDK or the go-plugin peer) and starts sessions with it. Every session answers the
// same Echo, so one timing loop (package measure) serves them all; the optional
// interfaces below are the extra scenarios only some targets can run.
package target

import (
	"context"
	"time"
)

// EchoValue is the payload of every echo call: small, like a typical tool argument,
// and the same for every target.
const EchoValue = "octet-bench-0123456789"

// PublishMIME is the media type the artifact scenario asks the fixture to publish. The
// fixture's bytes are a pattern, not an image, so they go as generic binary: the host's
// artifact service verifies size and SHA-256 for every type and a byte signature only for
// the eight content-part media types.
const PublishMIME = "application/octet-stream"

// Kind says what a target is, for grouping and ratios.
type Kind string

const (
	Floor    Kind = "floor"     // hand-written JSON-lines child: the least a language can do
	SDK      Kind = "octet"     // our SDK's conformance fixture (27 tools)
	Hello    Kind = "hello"     // our SDK's hello-world example: one tool, like the floor
	MCP      Kind = "mcp"       // the official MCP SDK of the language
	GoPlugin Kind = "go-plugin" // hashicorp/go-plugin over gRPC
)

// Target is one thing to measure.
type Target struct {
	ID    string // stable key in results, e.g. "octet-go"
	Name  string // for tables, e.g. "octet SDK hello-world, 1 tool (Go)"
	Lang  string // "go", "python" or "typescript"
	Kind  Kind
	Via   string // how the harness drives it, e.g. "sdk-go/jsonrpc (direct)"
	Start func(ctx context.Context) (Session, error)
	// StartGroup, when set, starts n extensions at once in one host and returns a
	// session for each and a function that stops them all (host scale scenario).
	// Without it the scale scenario calls Start n times concurrently.
	StartGroup func(ctx context.Context, n int) ([]Session, func(), error)
	// Direct, when set, starts the same extension with the harness as its host
	// (sdk-go/jsonrpc, harness-served kv.get and artifact/publish). The runner uses
	// it for scenarios the host library refuses, and says so.
	Direct func(ctx context.Context) (Session, error)
	// Tools is how many tools the extension's manifest contributes (0 when not read), so
	// the page can say which extension a row measures.
	Tools int
	// Note, when set, says how this target's start differs from the obvious one.
	Note string
	// Missing, when set, says why the target cannot run in this checkout (for
	// example "examples/go/conformance-fixture not present yet").
	Missing string
}

// Session is one started process, initialised and ready.
type Session interface {
	// Echo makes one echo tool call and checks its answer.
	Echo(ctx context.Context) error
	// Close ends the process (politely first) and releases everything.
	Close() error
	// PID of the child process, for memory accounting.
	PID() int
}

// Callbacker runs the fixture tool callback_n: n sequential extension-to-host calls
// while serving one host request.
type Callbacker interface {
	CallbackN(ctx context.Context, n int) error
}

// Crasher calls the crash tool and returns how long the host took to see the
// connection fail (the call must fail with a transport error, never hang).
type Crasher interface {
	Crash(ctx context.Context) (time.Duration, error)
}

// Canceller starts the fixture's slow tool, cancels it once the handler runs, and
// returns the time from sending the cancel to receiving the handler's -32800 answer.
type Canceller interface {
	CancelLatency(ctx context.Context) (time.Duration, error)
}

// Publisher calls the fixture's publish tool (mode "inline" or "path").
type Publisher interface {
	Publish(ctx context.Context, bytes int, mode string) error
}
