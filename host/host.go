package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/suggest"
	"github.com/octet-kit/octet/host/process"
)

// Host runs a set of extensions.
type Host struct {
	opts     Options
	services Services
	run      string // random per host run; instance ids derive from it
	events   *eventQueue
	lc       lifecycleState

	mu    sync.Mutex
	exts  map[string]*Extension
	owner string // the extension that owns session policy (owner.go); "" for none

	catMu   sync.Mutex
	catalog atomic.Pointer[Catalog]
	trusted atomic.Pointer[ModelCatalog] // the last model catalog the owner vouched for

	procOnce sync.Once         // prepareProcesses (cleanup.go)
	registry *process.Registry // this host's record for a successor's sweep; nil if unwritable
	swept    process.SweepReport
	idem     idemWaiters // this host's runs under idempotency keys (idempotency.go)
	// uncheckedForBench turns the host's argument and result checks off; only the
	// benchmark sets it (export_test.go), to measure what the checks cost in one run.
	uncheckedForBench bool
}

// New creates a host. Nothing starts until Start.
func New(opts Options) *Host {
	opts.withDefaults()
	h := &Host{opts: opts, services: opts.Services, exts: map[string]*Extension{}, events: newEventQueue(opts.OnEvent)}
	if h.services == nil {
		h.services = noServices{}
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	h.run = hex.EncodeToString(b[:])
	h.catalog.Store(&Catalog{byName: map[string]int{}})
	h.lc.open = map[string]bool{}
	return h
}

func (h *Host) instanceID(name string) string { return name + "-" + h.run }

// StartFailure is one extension that did not start, and why.
type StartFailure struct {
	Name string
	Err  error
}

// StartupError reports that startup stopped: a required extension is missing, disabled,
// untrusted or failed, or two extensions claim session ownership. Everything started was
// stopped, in reverse order of start. Kind classifies it.
type StartupError struct {
	Kind     StartupKind
	Required string // the required extension, for the required_* kinds
	Err      error
}

func (e *StartupError) Error() string {
	if e.Kind == StartupOwnerConflict {
		return fmt.Sprintf("startup stopped (%s): %v", e.Kind, e.Err)
	}
	return fmt.Sprintf("required extension %s failed (%s), startup stopped and started extensions were shut down: %v", e.Required, e.kind(), e.Err)
}

func (e *StartupError) kind() StartupKind {
	if e.Kind == "" {
		return StartupRequiredFailed
	}
	return e.Kind
}

func (e *StartupError) Unwrap() error { return e.Err }

// Start starts every admitted entry at once and waits for the slowest handshake. A failed
// optional extension is reported and stays failed (supervision begins only after a first
// successful initialisation). If a required extension is missing or fails, every extension
// already started is shut down and a *StartupError is returned.
func (h *Host) Start(ctx context.Context, entries []*discovery.Entry, required []string) ([]StartFailure, error) {
	have := map[string]bool{}
	var names []string
	for _, e := range entries {
		have[e.Name] = true
		names = append(names, e.Name)
	}
	for _, r := range required {
		if !have[r] {
			return nil, &StartupError{Kind: StartupRequiredMissing, Required: r, Err: fmt.Errorf("it is not discovered or not admitted%s", suggest.Hint(r, names, nil))}
		}
	}
	owner, err := sessionOwner(entries)
	if err != nil {
		return nil, &StartupError{Kind: StartupOwnerConflict, Err: err}
	}
	if prev := h.Owner(); owner != "" && prev != "" && prev != owner {
		return nil, &StartupError{Kind: StartupOwnerConflict, Err: &OwnerConflictError{First: min(prev, owner), Second: max(prev, owner)}}
	}
	if owner != "" && !slices.Contains(required, owner) {
		// The owner binds session policy: if it cannot start, nothing may run without it.
		required = append(slices.Clip(required), owner)
	}
	h.prepareProcesses() // a crashed predecessor's leftovers go before anything starts
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	exts := make([]*Extension, len(entries))
	gens := make([]*generation, len(entries))
	errs := make([]error, len(entries))
	var wg sync.WaitGroup
	h.mu.Lock()
	if owner != "" {
		h.owner = owner
	}
	isRequired := map[string]bool{}
	for _, r := range required {
		isRequired[r] = true
	}
	skip := make([]bool, len(entries))
	for i, en := range entries {
		exts[i] = newExtension(h, en)
		h.exts[en.Name] = exts[i]
		if exts[i].onDemand() && !isRequired[en.Name] {
			// lazy_resident and oneshot start on their first call; a required one is started
			// now so that its failure stops startup.
			skip[i] = true
			exts[i].state = StateIdle
			continue
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			gens[i], errs[i] = exts[i].startCandidate(ctx, entries[i].Manifest)
		}(i)
	}
	h.mu.Unlock()
	wg.Wait()
	// Install in name order so duplicate-tool refusals are deterministic; that is the order
	// the extensions become ready (activated), and a rollback stops them in reverse.
	var activated []*Extension
	for i, e := range exts {
		if skip[i] {
			continue
		}
		if errs[i] == nil {
			if errs[i] = e.install(gens[i], nil); errs[i] != nil {
				gens[i].stop("disable")
			}
		}
		if errs[i] != nil {
			e.mu.Lock()
			e.setStateLocked(StateFailed, errs[i])
			e.mu.Unlock()
		} else {
			activated = append(activated, e)
		}
	}
	if owner != "" {
		h.ModelCatalog() // the first trusted model catalog, enforced should the owner fail
	}
	var failures []StartFailure
	for i, e := range exts {
		if errs[i] == nil {
			continue
		}
		failures = append(failures, StartFailure{Name: e.name, Err: errs[i]})
		if isRequired[e.name] {
			h.rollback(activated)
			return failures, &StartupError{Kind: StartupRequiredFailed, Required: e.name, Err: errs[i]}
		}
	}
	return failures, nil
}

// Extension returns the extension named name, or nil.
func (h *Host) Extension(name string) *Extension {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.exts[name]
}

// Extensions returns every extension, sorted by name.
func (h *Host) Extensions() []*Extension {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*Extension, 0, len(h.exts))
	for _, e := range h.exts {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Status returns every extension's status, sorted by name.
func (h *Host) Status() []Status {
	var out []Status
	for _, e := range h.Extensions() {
		out = append(out, e.Status())
	}
	return out
}

// ResolveTool finds the extension serving tool name: the catalog first, then an idle or
// restarting extension whose manifest declares it (the call activates it, or waits for
// its next generation).
func (h *Host) ResolveTool(name string) (*Extension, error) {
	if entry, ok := h.Catalog().Lookup(name); ok {
		return h.Extension(entry.Extension), nil
	}
	// An extension that is not in the catalog right now but will serve its manifest tools
	// once it runs: idle (starts on the first call), or restarting after a crash (its dead
	// tool group left the catalog; Request waits for the new generation, bounded by the
	// request timeout). Parked, failed and stopped extensions are not candidates.
	for _, e := range h.Extensions() {
		e.mu.Lock()
		pending := e.state == StateIdle || e.state == StateBackoff || e.state == StateStarting
		e.mu.Unlock()
		if pending && contains(e.entry.Manifest.Contributes.Tools, name) {
			return e, nil
		}
	}
	var names []string
	for _, t := range h.Catalog().Tools {
		names = append(names, t.Tool.Name)
	}
	return nil, &UnknownToolError{Tool: name, Catalog: names}
}

// CallTool calls tool name on the extension that serves it (see ResolveTool).
func (h *Host) CallTool(ctx context.Context, name string, args []byte) ([]byte, string, error) {
	e, err := h.ResolveTool(name)
	if err != nil {
		return nil, "", err
	}
	out, err := e.CallTool(ctx, name, args)
	return out, e.name, err
}

// Shutdown stops every extension at once, each within its bounds, and returns once every
// status event has been delivered.
func (h *Host) Shutdown() {
	var wg sync.WaitGroup
	for _, e := range h.Extensions() {
		wg.Add(1)
		go func(e *Extension) { defer wg.Done(); e.Stop("host_exit") }(e)
	}
	wg.Wait()
	h.finishProcesses()
	h.events.flush()
}
