package octet

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
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

// Extension is one extension process's registry and runtime. Register every
// contribution before Run (dynamic tools excepted); the methods that talk to the
// host are safe for concurrent use from handlers.
type Extension struct {
	services // ext.KV, ext.UI, ext.Agents, ... (services_gen.go)

	opts Options
	log  *slog.Logger

	mu        sync.Mutex
	tools     []*ToolDef // bootstrap catalog (revision 0), in registration order
	commands  []*commandEntry
	hooks     map[string]HookHandler
	context   ContextHandler
	statuses  map[string]StatusHandler
	renderers map[string]RenderHandler
	lifecycle map[string][]LifecycleHandler
	shutdowns []func(ctx context.Context)
	configure configurer      // OnConfigure (settings.go)
	settings  json.RawMessage // the last accepted settings
	// migrations are the registered KV migration steps by from-version (migrate.go).
	migrations map[int64]MigrationFunc
	migration  migrationState

	conn        *jsonrpc.Conn
	connSet     chan struct{}                                   // closed once conn is assigned (handlers start before that)
	routes      map[string]protocol.HostRoute[*jsonrpc.Request] // generated dispatch table (hostmethods.go)
	served      atomic.Bool
	session     atomic.Pointer[session] // set by initialize
	pool        *pool
	cancelWork  context.CancelFunc // ends every request handler's context (Serve's BaseContext)
	catalog     *catalog
	parents     parents
	arrivals    arrivals // admission decided, by arrival order (admission.go)
	shutting    atomic.Bool
	shutdownRun sync.Once
	stopped     chan struct{} // closed once the shutdown handler has finished
	present     presentState  // presentation revisions (sendrules.go)
}

// session is what initialize negotiated.
type session struct {
	apiVersion  string
	features    map[string]bool
	concurrency int
	params      InitializeInfo
	manifest    manifestView
	maxBytes    int
}

// InitializeInfo is what the host told the extension in initialize.
type InitializeInfo struct {
	APIVersion   string                  `json:"api_version"`
	OctetVersion string                  `json:"octet_version"`
	Extension    protocol.ExtensionInfo  `json:"extension"`
	Manifest     json.RawMessage         `json:"manifest"`
	Workspace    protocol.WorkspaceInfo  `json:"workspace"`
	Session      *protocol.SessionInfo   `json:"session,omitempty"`
	Protocol     *protocol.ProtocolOffer `json:"protocol,omitempty"`
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
		opts:      opts,
		log:       opts.Logger,
		hooks:     map[string]HookHandler{},
		statuses:  map[string]StatusHandler{},
		renderers: map[string]RenderHandler{},
		lifecycle: map[string][]LifecycleHandler{},
		stopped:   make(chan struct{}),
		connSet:   make(chan struct{}),
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

// Initialized reports whether initialize has completed.
func (e *Extension) Initialized() bool { return e.session.Load() != nil }

// APIVersion returns the negotiated API version ("" before initialize).
func (e *Extension) APIVersion() string {
	if s := e.session.Load(); s != nil {
		return s.apiVersion
	}
	return ""
}

// NegotiatedFeatures returns the accepted features (empty for API 0.1 or before
// initialize).
func (e *Extension) NegotiatedFeatures() []string {
	s := e.session.Load()
	if s == nil {
		return nil
	}
	out := make([]string, 0, len(s.features))
	for f := range s.features {
		out = append(out, f)
	}
	sortStrings(out)
	return out
}

// HasFeature reports whether feature was negotiated.
func (e *Extension) HasFeature(feature string) bool {
	s := e.session.Load()
	return s != nil && s.features[feature]
}

// NegotiatedConcurrency returns the worker pool size in effect (0 before initialize).
func (e *Extension) NegotiatedConcurrency() int {
	if s := e.session.Load(); s != nil {
		return s.concurrency
	}
	return 0
}

// Info returns what the host sent in initialize (nil before it).
func (e *Extension) Info() *InitializeInfo {
	if s := e.session.Load(); s != nil {
		return &s.params
	}
	return nil
}
