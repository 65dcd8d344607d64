// Package bridge is octet-mcp: an octet extension (on the octet Go SDK) that supervises
// MCP servers and publishes their tools as its live tool catalog, so a host that knows
// nothing of MCP can call them.
//
// Files: config.go (the configuration file), upstream.go (one supervised server:
// transports, handshake classification, restart with backoff), stdio.go (the stdio
// transport), catalog.go (MCP tools to octet tool definitions, atomic republication,
// fail-closed withdrawal), forward.go (calls: progress, cancellation, errors), elicit.go
// (elicitation as input requests), content.go (MCP content to octet parts and
// artifacts), status.go (the bridge's own tools and status surface).
package bridge

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Version is octet-mcp's version, the kit's.
const Version = octet.Version

// Bridge is one octet-mcp process.
type Bridge struct {
	ext *octet.Extension
	log *slog.Logger
	cfg *Config

	ctx    context.Context
	cancel context.CancelFunc

	servers map[string]*upstream
	order   []string
	own     []*octet.ToolDef // the bridge's bootstrap tools, part of every replaced catalog

	pubMu sync.Mutex // one catalog mutation at a time, across servers

	tokens atomic.Int64
	calls  sync.Map // progress token (int64) -> *inflight

	started atomic.Bool
	ready   chan struct{} // closed once initialize has been answered: catalogs may be published

	changeMu sync.Mutex
	change   chan struct{} // closed and replaced on every state or catalog change

	settings settingsState // where the servers came from (settings.go)
}

// New builds the bridge for cfg: the extension with its bootstrap tools (mcp_status,
// mcp_connect) and status surface. Run serves it.
func New(cfg *Config, opts octet.Options) *Bridge {
	ctx, cancel := context.WithCancel(context.Background())
	b := &Bridge{cfg: cfg, ctx: ctx, cancel: cancel, servers: map[string]*upstream{}, change: make(chan struct{}), ready: make(chan struct{})}
	next := opts.OnFrame
	// Dynamic tools can only be registered once initialize has been answered, the first
	// frame written; the servers start before (Run), so their start-up overlaps the
	// host's handshake, and publish when this opens.
	opts.OnFrame = func(dir jsonrpc.Direction, frame []byte) {
		if next != nil {
			next(dir, frame)
		}
		if dir == jsonrpc.Outbound && b.ext.Initialized() && b.started.CompareAndSwap(false, true) {
			close(b.ready)
		}
	}
	b.ext = octet.New(opts)
	b.log = b.ext.Log()
	for _, name := range cfg.Names() {
		b.servers[name] = newUpstream(b, name, cfg.Servers[name])
		b.order = append(b.order, name)
	}
	b.registerOwn()
	b.registerSettings()
	b.ext.OnShutdown(func(context.Context) { b.Stop() })
	return b
}

// Extension is the octet extension the bridge serves.
func (b *Bridge) Extension() *octet.Extension { return b.ext }

// Run starts the servers and serves the extension on stdin/stdout until the host shuts
// it down.
func (b *Bridge) Run() {
	b.startAll()
	b.ext.Run()
	b.Stop()
}

// Stop ends every server, in parallel, and returns once each session is closed (a stdio
// server gets its stdin closed, then SIGTERM after 2 s).
func (b *Bridge) Stop() {
	b.cancel()
	var wg sync.WaitGroup
	for _, u := range b.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u.stop()
		}()
	}
	wg.Wait()
}

// startAll starts every server that needs no secret; one with secrets waits for
// mcp_connect, whose request the broker answers under.
func (b *Bridge) startAll() {
	for _, name := range b.order {
		u := b.servers[name]
		if len(u.cfg.SecretEnv) > 0 {
			u.set(StateNeedsStart, "has secret_env: call mcp_connect to start it")
			continue
		}
		u.start(b.ctx, nil)
	}
}

// statusChanged wakes everything waiting for a state or catalog change (mcp_status
// wait). The status surface is pulled by the host (status/collect), so nothing is
// pushed to it.
func (b *Bridge) statusChanged() {
	b.changeMu.Lock()
	close(b.change)
	b.change = make(chan struct{})
	b.changeMu.Unlock()
}
