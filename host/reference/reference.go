package reference

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Options configure a reference host.
type Options struct {
	// Host configures the core. StateDir is required unless Store is given. Open sets
	// Services (the router), SecretBroker and ApprovalIssuance (from Script), and fills
	// Session.SessionID, when it is empty, with DurableSessionID(StateDir, Workspace) (random
	// with a borrowed Store). OnFrame, when set, still sees every frame, after tracing and
	// recording.
	Host host.Options
	// Store is an already open state store, e.g. one shared by many hosts in a benchmark;
	// Close leaves it open. Nil opens the store in Host.StateDir, and Close closes it.
	Store *store.Store
	// Script answers confirmations, input, policy, child sessions and lifecycle, and
	// brokers secrets; nil is the default policy (deny, cancel, no secrets).
	Script *script.Script
	// Record stores every frame of each extension, secrets redacted, as the recording
	// RecordingID(extension), for `octet-host inspect`.
	Record bool
	// Trace, when set, receives every frame, every service event and every host note as
	// JSON lines (TraceLine), secrets redacted.
	Trace io.Writer
	// Redactor is the one redactor of this host: it learns the script's broker values at
	// Open and every secret input answer as the router hands it out, and redacts traces,
	// recordings, events, diagnostics and the extensions' stderr logs. Nil makes a new one;
	// pass your own to redact what you print yourself (the CLI does). See Host.Redactor.
	Redactor *redact.Redactor
	// Warnf receives problems that do not stop the host (a recording that could not
	// start, notifications dropped); nil discards them.
	Warnf func(format string, args ...any)
	// Asker, when set, answers the confirmations and input requests the Script does not
	// (a person at a terminal); nil leaves them to the default policy.
	Asker services.Asker
	// Events, when set, also receives every service event (notifications, progress,
	// presentation snapshots, diagnostics) as the router emits it, in order.
	Events services.EventSink
}

// Host is a reference host. StartDir starts extension directories and BeginSession opens
// the session; the embedded core does the rest (Start, CallTool, Extension, Lifecycle,
// Status, ...). Close, not the core's Shutdown, ends it, so the recordings are checked and
// the store closed.
type Host struct {
	*host.Host

	router    *services.Router
	store     *store.Store
	ownStore  bool
	script    *script.Script
	sessionID string
	run       string // random per Open: two runs of one durable session record apart
	red       *redact.Redactor
	trace     io.Writer
	tracer    *tracer
	warnf     func(format string, args ...any)
	events    services.EventSink
	closeOnce sync.Once

	deliveries *deliveries // nil when Options.Host.Deliveries was given

	mu        sync.Mutex
	recorders map[string]*recording.Recorder
	recorded  []string
}

// Open opens (or borrows) the state store, builds the services router and the core, and
// wires them together. Nothing starts until Start or StartDir.
func Open(ctx context.Context, opts Options) (*Host, error) {
	st, own := opts.Store, false
	if st == nil {
		if opts.Host.StateDir == "" {
			return nil, errors.New("reference: Options.Host.StateDir or Options.Store is required")
		}
		var err error
		if st, err = store.Open(ctx, opts.Host.StateDir); err != nil {
			return nil, err
		}
		own = true
	}
	red := opts.Redactor
	if red == nil {
		red = redact.New()
	}
	// Broker values are registered before any extension starts: a value the extension
	// never asked for cannot be echoed, but a user may type it into a tool's arguments.
	red.Add(opts.Script.SecretValues()...)
	if opts.Trace != nil {
		opts.Trace = &syncWriter{w: opts.Trace}
	}
	h := &Host{store: st, ownStore: own, script: opts.Script, red: red,
		trace: opts.Trace, tracer: newTracer(), warnf: opts.Warnf, events: opts.Events, recorders: map[string]*recording.Recorder{}}
	if h.warnf == nil {
		h.warnf = func(string, ...any) {}
	}
	router, err := services.NewRouter(services.RouterConfig{
		Store:    st,
		Script:   opts.Script,
		Asker:    opts.Asker,
		Redactor: red,
		Events:   services.EventSinkFunc(h.event),
		// A dynamic catalog reaches the core's all-extensions catalog atomically, or the
		// mutation is refused. h.Host is set below, before any extension can register.
		OnCatalog: func(c *services.Caller, revision int64, tools []services.ToolDefinition) error {
			return h.Host.OnCatalog(c, revision, tools)
		},
	})
	if err != nil {
		h.closeStore()
		return nil, err
	}
	h.router = router
	ho := opts.Host
	var run [4]byte
	_, _ = rand.Read(run[:])
	h.run = hex.EncodeToString(run[:])
	if ho.Session.SessionID == "" && own {
		// The session persists in the store this host opened in StateDir, which exists
		// now, so it has a canonical path. A borrowed store is not this session's.
		id, err := DurableSessionID(ho.StateDir, ho.Workspace)
		if err != nil {
			h.closeStore()
			return nil, err
		}
		ho.Session.SessionID = id
	}
	if ho.Session.SessionID == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		ho.Session.SessionID = "session-" + hex.EncodeToString(b[:])
	}
	h.sessionID = ho.Session.SessionID
	ho.Services = router
	if h.store != nil && ho.Idempotency == nil {
		ho.Idempotency = idempotencyStore{h.store} // results under callers' idempotency keys survive restarts
	}
	if h.store != nil && ho.Deliveries == nil {
		h.deliveries = newDeliveries(h) // each send and its receipt, for `octet-host recover`
		ho.Deliveries = h.deliveries
	}
	if ho.BundleDigest == nil {
		ho.BundleDigest = bundleDigest
	}
	ho.SecretBroker = opts.Script.HasSecrets()
	ho.ApprovalIssuance = opts.Script.IssuesApprovals()
	next := ho.OnFrame
	record := opts.Record
	if ho.StderrFilter == nil {
		ho.StderrFilter = func() process.Filter { return redact.NewStream(red) }
	}
	ho.OnFrame = func(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
		if h.trace == nil && !record {
			if next != nil {
				next(ext, gen, dir, frame)
			}
			return
		}
		// Redacted once for both taps: the hot path pays one prefilter per frame.
		clean := red.Frame(frame)
		h.traceFrame(ext, gen, dir, clean)
		if record {
			h.record(ext, dir, clean)
		}
		if next != nil {
			next(ext, gen, dir, frame)
		}
	}
	nextRejected := ho.OnRejected
	ho.OnRejected = func(ext string, gen int64, err error) {
		h.noteRejected(ext, gen, err, record)
		if nextRejected != nil {
			nextRejected(ext, gen, err)
		}
	}
	h.Host = host.New(ho)
	return h, nil
}

// Close shuts every extension down (bounded), flushes the recordings and closes the store
// it opened. It returns the recordings' write errors, if any. Calling it again does nothing.
func (h *Host) Close() error {
	var errs []error
	h.closeOnce.Do(func() {
		h.Host.Shutdown()
		h.mu.Lock()
		for _, r := range h.recorders {
			if err := r.Err(); err != nil {
				errs = append(errs, fmt.Errorf("recording: %w", err))
			}
		}
		h.mu.Unlock()
		if err := h.closeStore(); err != nil {
			errs = append(errs, err)
		}
	})
	return errors.Join(errs...)
}

func (h *Host) closeStore() error {
	if h.ownStore {
		return h.store.Close()
	}
	return nil
}

// SessionID is the session this host runs (sent in initialize and in lifecycle events).
func (h *Host) SessionID() string { return h.sessionID }

// Store is the state store: KV, artifacts, call records, recordings.
func (h *Host) Store() *store.Store { return h.store }

// Router is the services router serving every extension->host method.
func (h *Host) Router() *services.Router { return h.router }

// Redactor is the host's redactor (Options.Redactor or the one Open made): redact with it
// anything printed or stored outside the host that may carry extension text.
func (h *Host) Redactor() *redact.Redactor { return h.red }

// Script is the script the host answers with (nil: the default policy).
func (h *Host) Script() *script.Script { return h.script }
