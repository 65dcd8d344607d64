package host

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
)

// State is an extension's runtime state.
type State string

// Runtime states.
const (
	StateStarting State = "starting"
	StateReady    State = "ready"
	StateBackoff  State = "backoff" // crashed; a restart is scheduled
	StateParked   State = "parked"  // failed permanently or too often; needs reload
	StateFailed   State = "failed"  // the first start failed; supervision never began
	StateStopped  State = "stopped"
	StateIdle     State = "idle" // lazy_resident or oneshot: starts on the first call
)

// Extension is one admitted extension under supervision. Its current generation changes on
// restart and reload; callers never see a half-started one.
type Extension struct {
	host         *Host
	entry        *discovery.Entry
	bundleDigest string // bundle.Record.SHA256 of an installed bundle, else ""
	name         string
	instanceID   string

	lifecycle sync.Mutex // generation-checked lock shared by reload and supervised restart

	mu  sync.Mutex
	cur *generation
	// stoppedTail is the stopped generation's last stderr lines, read once its process
	// ended, so a report printed after Stop sees every line the extension wrote.
	stoppedTail []string
	state       State
	lastErr     error
	failures    int
	nextGen     int64
	changed     chan struct{} // closed and replaced on every state change
	stopped     bool
	stopCh      chan struct{}
	contribs    *contributions // what the first ready generation registered
	restarts    int
	oneshot     sync.Mutex    // serialises oneshot operations: one process per operation
	settings    settingsState // the operator's settings in force (settings.go)
}

func newExtension(h *Host, e *discovery.Entry) *Extension {
	x := &Extension{host: h, entry: e, name: e.Name, instanceID: h.instanceID(e.Name), state: StateStarting,
		changed: make(chan struct{}), stopCh: make(chan struct{})}
	if h.opts.BundleDigest != nil {
		x.bundleDigest = h.opts.BundleDigest(e.Dir)
	}
	return x
}

// Name is the extension's name.
func (e *Extension) Name() string { return e.name }

// Entry is the discovery entry the extension was started from.
func (e *Extension) Entry() *discovery.Entry { return e.entry }

func (e *Extension) setStateLocked(s State, err error) {
	e.state, e.lastErr = s, err
	close(e.changed)
	e.changed = make(chan struct{})
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	gen := e.nextGen // the last generation started, when none is current
	if e.cur != nil {
		gen = e.cur.number
	}
	e.host.events.push(Event{Extension: e.name, Generation: gen, State: s, Message: msg})
}

// Status is a snapshot for `status` and `list`.
type Status struct {
	Name       string   `json:"name"`
	State      State    `json:"state"`
	Generation int64    `json:"generation"`
	PID        int      `json:"pid,omitempty"`
	APIVersion string   `json:"api_version,omitempty"`
	Features   []string `json:"features,omitempty"`
	Pending    int      `json:"pending"`
	Failures   int      `json:"failures"`
	Restarts   int      `json:"restarts"`
	LastError  string   `json:"last_error,omitempty"`
	// ManifestDigest is the SHA-256 of the manifest file's bytes (the principal's identity);
	// BundleDigest the SHA-256 of the bundle archive it was installed from, when it was.
	ManifestDigest string           `json:"manifest_digest,omitempty"`
	BundleDigest   string           `json:"bundle_digest,omitempty"`
	Tools          []string         `json:"tools,omitempty"`
	Commands       []string         `json:"commands,omitempty"`
	Hooks          []string         `json:"hooks,omitempty"`
	Source         discovery.Source `json:"source"`
	// Sandbox says how the current generation runs: "enforced: <policy>" or "off (operator
	// opt-out)"; Permissions what the manifest asks for (docs/sandbox.md).
	Sandbox     string `json:"sandbox,omitempty"`
	Permissions string `json:"permissions,omitempty"`
}

// Status returns the extension's current status.
func (e *Extension) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := Status{Name: e.name, State: e.state, Failures: e.failures, Restarts: e.restarts, Source: e.entry.Source, BundleDigest: e.bundleDigest}
	if e.entry.Manifest != nil {
		s.ManifestDigest = e.entry.Manifest.Digest
	}
	if e.lastErr != nil {
		s.LastError = e.lastErr.Error()
	}
	if g := e.cur; g != nil {
		s.Generation, s.PID, s.APIVersion, s.Pending = g.number, g.proc.Pid(), g.manifest.APIVersion, g.pending()
		for f := range g.neg.features {
			s.Features = append(s.Features, f)
		}
		for _, t := range g.neg.tools {
			s.Tools = append(s.Tools, t.Name)
		}
		for _, c := range g.neg.commands {
			s.Commands = append(s.Commands, c.Name)
		}
		s.Hooks = append(s.Hooks, g.neg.hooks...)
		s.Permissions = g.manifest.Capabilities.Summary()
		if p := g.proc.Policy(); p != nil {
			s.Sandbox = "enforced: " + p.Describe()
		} else {
			s.Sandbox = "off (operator opt-out)"
		}
	}
	return s
}

// current returns the ready generation, waiting (bounded by ctx) while a restart is in
// progress. It never waits for a parked, failed or stopped extension.
func (e *Extension) current(ctx context.Context) (*generation, error) {
	// The common case, a ready and live generation, needs no timer.
	e.mu.Lock()
	g, s := e.cur, e.state
	e.mu.Unlock()
	if g != nil && s == StateReady && !g.dead() {
		return g, nil
	}
	// Waiting for a restart is bounded by the request timeout too, so a caller without a
	// deadline never waits through a long backoff.
	ctx, cancel := context.WithTimeout(ctx, e.host.opts.RequestTimeout)
	defer cancel()
	for {
		e.mu.Lock()
		g, s, err, ch := e.cur, e.state, e.lastErr, e.changed
		e.mu.Unlock()
		if g != nil && s == StateReady {
			if !g.dead() {
				return g, nil
			}
			// It just died and supervision has not noticed yet: wait for the state change
			// (backoff, then ready again) instead of failing this call on a dead connection.
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return nil, &UnavailableError{Extension: e.name, State: string(StateBackoff), Reason: "restarting when the call gave up: " + ctx.Err().Error()}
			}
		}
		if s == StateIdle {
			if err := e.activate(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if s != StateStarting && s != StateBackoff {
			reason := ""
			if err != nil {
				reason = err.Error()
			}
			return nil, &UnavailableError{Extension: e.name, State: string(s), Reason: reason}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, &UnavailableError{Extension: e.name, State: string(s), Reason: "still restarting when the call gave up: " + ctx.Err().Error()}
		}
	}
}

// Request sends a host request to the current generation. params may be nil; the resource
// owner is added for owner-carrying methods of API 0.2/0.4. A crash mid-call is a
// *TransportError (never a hang), an overrun a *TimeoutError (after $/cancelRequest), an
// error answer a *jsonrpc.Error. Calls are never retried.
func (e *Extension) Request(ctx context.Context, method string, params map[string]any, result any) error {
	return e.requestOn(ctx, method, params, result, nil, nil)
}

// requestOn is Request with prepare run against the generation that will serve the call,
// before anything is sent: it may complete params for that generation or refuse the call.
// check, when set, judges the answer (result is then a *json.RawMessage) against that same
// generation before the caller sees it; its error replaces the result.
// params is a generated params type (see hostparams.go) or a map.
func (e *Extension) requestOn(ctx context.Context, method string, params any, result any, prepare func(*generation) error, check func(*generation) error) error {
	if e.lifecycleOf() == "oneshot" {
		e.oneshot.Lock()
		defer e.oneshot.Unlock()
	}
	g, err := e.current(ctx)
	if err != nil {
		return err
	}
	if prepare != nil {
		if err := prepare(g); err != nil {
			return err
		}
	}
	err = g.request(ctx, method, params, result)
	if err == nil && check != nil && !e.host.uncheckedForBench {
		err = check(g)
	}
	if e.lifecycleOf() == "oneshot" {
		e.retire(g) // the admitted operation settled: the process goes with it
	}
	return err
}

// CallTool calls tool/call with args (a JSON object; nil means {}) and returns the raw result.
func (e *Extension) CallTool(ctx context.Context, name string, args json.RawMessage) (json.RawMessage, error) {
	return e.Call(ctx, ToolCall{Name: name, Arguments: args})
}

// CallToolAs is CallTool with a call_id (API 0.2/0.4), the id lifecycle tool events carry.
func (e *Extension) CallToolAs(ctx context.Context, name string, args json.RawMessage, callID string) (json.RawMessage, error) {
	return e.Call(ctx, ToolCall{Name: name, Arguments: args, CallID: callID})
}

// loadManifest re-reads and validates the manifest from disk for a restart or reload; a
// now-invalid manifest is a permanent failure (the extension parks or the reload fails).
func (e *Extension) loadManifest() (*manifest.Manifest, error) {
	m, diags := manifest.Load(e.entry.ManifestPath, manifest.Options{OctetVersion: e.host.opts.OctetVersion})
	if len(diags) > 0 {
		msgs := ""
		for _, d := range diags {
			msgs += "\n  " + d.String()
		}
		return nil, &StartError{Kind: kindManifest, Message: "manifest is no longer valid:" + msgs}
	}
	if m.Name != e.name {
		return nil, &StartError{Kind: kindManifest, Message: fmt.Sprintf("manifest name changed from %q to %q", e.name, m.Name)}
	}
	return m, nil
}

// startCandidate starts and handshakes a new generation from the manifest on disk.
func (e *Extension) startCandidate(ctx context.Context, m *manifest.Manifest) (*generation, error) {
	if m == nil {
		var err error
		if m, err = e.loadManifest(); err != nil {
			return nil, err
		}
	}
	e.mu.Lock()
	e.nextGen++
	n := e.nextGen
	e.mu.Unlock()
	return startGeneration(ctx, e, m, n)
}

// install makes g the current generation and publishes its tools atomically. It fails
// (leaving everything as it was) when g already died or its tools collide. update, when
// not nil, runs under the extension's lock in the same step as the switch to ready, so a
// Status that shows the new generation ready also shows what installing it changed (a
// restart counted, a reload's reset failure budget).
func (e *Extension) install(g *generation, update func()) error {
	runHook(&hookInstalling, e.name)
	select {
	case <-g.ended:
		return g.transportError()
	default:
	}
	if err := e.host.replaceTools(e.name, g.number, 0, g.neg.tools); err != nil {
		return err
	}
	e.mu.Lock()
	if e.stopped {
		e.mu.Unlock()
		e.host.removeTools(e.name)
		return &UnavailableError{Extension: e.name, State: string(StateStopped)}
	}
	g.readyAt = e.host.opts.Clock.Now()
	e.cur = g
	if update != nil {
		update()
	}
	if e.contribs == nil {
		e.contribs = contributionsOf(g)
	}
	e.setStateLocked(StateReady, nil)
	e.mu.Unlock()
	g.markReady(true) // current now: what the extension sent since its answer is served
	g.seedLifecycle()
	return nil
}

// Stop shuts the extension down within bounds and cancels supervision.
func (e *Extension) Stop(reason string) {
	e.mu.Lock()
	if e.stopped {
		e.mu.Unlock()
		return
	}
	e.stopped = true
	close(e.stopCh)
	e.mu.Unlock()
	e.lifecycle.Lock() // wait for a restart or reload in progress to settle
	defer e.lifecycle.Unlock()
	e.mu.Lock()
	g := e.cur
	e.mu.Unlock()
	e.host.removeTools(e.name)
	var tail []string
	if g != nil {
		g.stop(reason)
		tail = g.proc.StderrTail() // complete now: the process is gone and its stderr drained
	}
	e.mu.Lock()
	e.cur = nil
	e.stoppedTail = tail
	e.setStateLocked(StateStopped, nil)
	e.mu.Unlock()
}

// waitState waits until the extension reaches one of states or ctx ends (tests, console).
func (e *Extension) waitState(ctx context.Context, states ...State) (State, error) {
	for {
		e.mu.Lock()
		s, ch := e.state, e.changed
		e.mu.Unlock()
		for _, w := range states {
			if s == w {
				return s, nil
			}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return s, ctx.Err()
		}
	}
}

// WaitState waits until the extension is in one of states, or timeout passes.
func (e *Extension) WaitState(timeout time.Duration, states ...State) (State, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return e.waitState(ctx, states...)
}

// LogPath is the file every generation's stderr goes to (bounded, redacted), or "" when
// the host has no state directory.
func (e *Extension) LogPath() string {
	if e.host.opts.StateDir == "" {
		return ""
	}
	return filepath.Join(e.host.opts.StateDir, "logs", "extensions", e.name+".log")
}

// StderrTail returns the last stderr lines of the current generation, or after Stop those
// of the generation it stopped (empty when none ran).
func (e *Extension) StderrTail() []string {
	e.mu.Lock()
	g, stopped := e.cur, e.stoppedTail
	e.mu.Unlock()
	if g == nil {
		return stopped
	}
	return g.proc.StderrTail()
}
