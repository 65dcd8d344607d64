package octet

import (
	"log/slog"
	"os"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Options configures an Extension. The zero value is right for most extensions.
type Options struct {
	// APIVersion pins the wire ("0.1", "0.2" or "0.4"). Empty follows the host:
	// OCTET_EXTENSION_API_VERSION, else the api_version initialize sends. Pin only
	// for a standalone harness or test.
	APIVersion string
	// MaxConcurrentRequests is the worker pool size (default 32, as in the Python and
	// TypeScript SDKs), capped by the host's offer. API 0.1 always uses one worker.
	MaxConcurrentRequests int
	// MaxPendingRequests is the admission queue (default 64); a full queue answers
	// overloaded.
	MaxPendingRequests int
	// ShutdownDrain bounds the drain on shutdown and stdin EOF (default 5s).
	ShutdownDrain time.Duration
	// Logger receives the SDK's diagnostics; default JSON lines on stderr.
	Logger *slog.Logger
	// OnFrame, if set, sees every protocol frame (for tracing and tests).
	OnFrame func(dir jsonrpc.Direction, frame []byte)
}

// Extension is one extension process, composed of the runtime's parts, each in its own file
// and the same in the Python and TypeScript SDKs: registry (what it contributes:
// registry.go) -> dispatch (routing what the host sends: dispatch.go) -> connection (the
// transport, workers and requests in flight: connection.go) -> session (what initialize
// negotiated: session.go) -> services (ext.KV, ext.UI, ...: services_gen.go, built on
// Send, send.go). Register every contribution before Run (dynamic tools excepted); the
// services are safe for concurrent use from handlers.
type Extension struct {
	services   // ext.KV, ext.UI, ext.Agents, ... (services_gen.go)
	registry   // contributions and their handlers (registry.go)
	connection // transport, dispatch table, workers, requests in flight (connection.go)
	negotiated // the session initialize negotiated (session.go)

	opts    Options
	log     *slog.Logger
	catalog *catalog     // the dynamic catalog's revisions (catalog.go)
	present presentState // presentation revisions (sendrules.go)
}

// New returns an Extension with the given options.
func New(opts Options) *Extension {
	if opts.MaxConcurrentRequests <= 0 {
		opts.MaxConcurrentRequests = 32
	}
	if opts.MaxPendingRequests <= 0 {
		opts.MaxPendingRequests = protocol.MaxPendingRequests
	}
	if opts.ShutdownDrain <= 0 {
		opts.ShutdownDrain = protocol.ShutdownDrainMS * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = NewLogger(os.Stderr, slog.LevelInfo)
	}
	e := &Extension{
		opts: opts,
		log:  opts.Logger,
		registry: registry{
			hooks:     map[string]HookHandler{},
			statuses:  map[string]StatusHandler{},
			renderers: map[string]RenderHandler{},
			lifecycle: map[string][]LifecycleHandler{},
		},
		connection: connection{stopped: make(chan struct{}), connSet: make(chan struct{})},
	}
	e.services.bind(e)
	e.catalog = newCatalog(e)
	e.routes = protocol.NewHostRoutes[*jsonrpc.Request](hostMethods{e})
	e.parents.init()
	e.arrivals.init()
	return e
}

// Log returns the extension's structured logger (JSON lines on stderr).
func (e *Extension) Log() *slog.Logger { return e.log }
