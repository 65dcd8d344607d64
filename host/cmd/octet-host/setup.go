package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/recording"
	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// workspaceDir resolves --workspace (default: the current directory) to an absolute path.
func (hf *hostFlags) workspaceDir() (string, error) {
	ws := hf.workspace
	if ws == "" {
		var err error
		if ws, err = os.Getwd(); err != nil {
			return "", err
		}
	}
	return filepath.Abs(ws)
}

// selection is what discovery and admission decided.
type selection struct {
	workspace string
	trusted   bool
	config    admission.Config
	policy    admission.Policy
	result    *discovery.Result
}

// selectExtensions loads the config, discovers the roots and builds the admission policy.
// explicitStart lists directories named directly by `call` (enabled and trusted for this
// invocation); explicitRoots are --extension-dir roots, which are not.
func (hf *hostFlags) selectExtensions(explicitStart []string, withGlobal bool) (*selection, error) {
	ws, err := hf.workspaceDir()
	if err != nil {
		return nil, err
	}
	cfg, err := admission.LoadConfig(hf.configPath)
	if err != nil {
		return nil, err
	}
	envGrants, err := admission.ParseEnvGrants(os.Getenv("OCTET_TRUSTED_EXTENSIONS"))
	if err != nil {
		return nil, err
	}
	trusted := hf.trustWorkspace
	for _, w := range cfg.TrustedWorkspaces {
		if filepath.Clean(w) == ws {
			trusted = true
		}
	}
	if trusted && withGlobal {
		// A trusted workspace may suggest enablement, never trust.
		proj, warnings, err := admission.LoadProjectConfig(admission.ProjectConfigPath(ws))
		if err != nil {
			return nil, err
		}
		for _, w := range warnings {
			fmt.Fprintln(os.Stderr, "octet-host:", w)
		}
		cfg.EnabledExtensions = append(cfg.EnabledExtensions, proj.EnabledExtensions...)
	}
	global := ""
	if withGlobal {
		global = hf.globalDir
	}
	dirs := append(append([]string{}, hf.extensionDirs...), explicitStart...)
	roots := discovery.Roots(global, ws, trusted && withGlobal, dirs)
	res := discovery.Discover(roots, manifest.Options{OctetVersion: host.OctetVersion})
	return &selection{
		workspace: ws, trusted: trusted, config: cfg, result: res,
		policy: admission.Policy{
			Enabled: cfg.EnabledExtensions, EnableOnce: hf.enable, PersistentTrust: append(cfg.TrustedExtensions, envGrants...),
			TrustOnce: hf.trust, Explicit: explicitStart, SafeMode: hf.safeMode, FullAccess: hf.fullAccess,
		},
	}, nil
}

// runtime is a started host with its services, store and recorders.
type runtime struct {
	host      *host.Host
	store     *store.Store
	script    *script.Script
	sessionID string
	stderr    io.Writer

	mu        sync.Mutex
	recorders map[string]*recording.Recorder
	recordIDs []string
}

// newRuntime opens the state store, loads the script, wires the services router and the
// frame taps (trace, record), and creates the host. Nothing starts yet.
func (hf *hostFlags) newRuntime(sel *selection, stderr io.Writer, events io.Writer) (*runtime, error) {
	st, err := store.Open(context.Background(), hf.stateDir)
	if err != nil {
		return nil, err
	}
	var sc *script.Script
	if hf.script != "" {
		if sc, err = script.Load(hf.script); err != nil {
			st.Close()
			return nil, err
		}
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	rt := &runtime{store: st, script: sc, sessionID: "session-" + hex.EncodeToString(b[:]), stderr: stderr, recorders: map[string]*recording.Recorder{}}
	adapter := &routerAdapter{callers: map[*host.Caller]*services.Caller{}, hostOf: map[*services.Caller]*host.Caller{}}
	router, err := services.NewRouter(services.RouterConfig{
		Store:  st,
		Script: sc,
		Events: services.EventSinkFunc(func(ev services.Event) {
			if hf.trace {
				fmt.Fprintf(stderr, "event %s[%d] %s: %+v\n", ev.Extension, ev.Generation, ev.Kind, ev.Payload)
			}
		}),
		OnCatalog: adapter.onCatalog,
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	adapter.r = router
	passEnv := append(append([]string{}, sel.config.PassEnv...), hf.passEnv...)
	session := host.Session{SessionID: rt.sessionID}
	if hf.model != "" {
		provider, id, ok := strings.Cut(hf.model, "/")
		if !ok || provider == "" || id == "" {
			st.Close()
			return nil, fmt.Errorf("--model %q must be PROVIDER/ID", hf.model)
		}
		session.Model = &host.Model{Provider: provider, ID: id}
	}
	var secrets []string
	if sc != nil {
		secrets = sc.SecretValues()
	}
	opts := host.Options{
		StateDir: hf.stateDir, Workspace: sel.workspace, WorkspaceTrusted: sel.trusted, PassEnv: passEnv,
		Session: session, Services: adapter, SecretBroker: sc.HasSecrets(), RequestTimeout: hf.timeout,
		OnFrame: func(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
			if hf.trace {
				arrow := "->"
				if dir == jsonrpc.Inbound {
					arrow = "<-"
				}
				fmt.Fprintf(stderr, "%s[%d] %s %s\n", ext, gen, arrow, redactForTrace(frame, secrets))
			}
			if hf.record {
				rt.record(ext, dir, frame, secrets)
			}
		},
	}
	if events != nil {
		opts.OnEvent = func(ev host.Event) {
			if ev.Message != "" {
				fmt.Fprintf(events, "[%s] %s (generation %d): %s\n", ev.Extension, ev.State, ev.Generation, ev.Message)
			} else {
				fmt.Fprintf(events, "[%s] %s (generation %d)\n", ev.Extension, ev.State, ev.Generation)
			}
		}
	}
	rt.host = host.New(opts)
	adapter.h = rt.host
	return rt, nil
}

// record feeds the recorder of ext, creating it on its first frame.
func (rt *runtime) record(ext string, dir jsonrpc.Direction, frame []byte, secrets []string) {
	rt.mu.Lock()
	r := rt.recorders[ext]
	if r == nil {
		id := rt.sessionID + "-" + ext
		var err error
		r, err = recording.New(context.Background(), rt.store, id, ext, recording.Options{KnownSecrets: secrets})
		if err != nil {
			rt.mu.Unlock()
			fmt.Fprintf(rt.stderr, "octet-host: recording %s: %v\n", ext, err)
			return
		}
		rt.recorders[ext] = r
		rt.recordIDs = append(rt.recordIDs, id)
	}
	rt.mu.Unlock()
	r.OnFrame(dir, frame)
}

// close shuts every extension down (bounded), flushes recordings and closes the store.
func (rt *runtime) close() {
	rt.host.Shutdown()
	rt.mu.Lock()
	for _, r := range rt.recorders {
		if err := r.Err(); err != nil {
			fmt.Fprintf(rt.stderr, "octet-host: recording: %v\n", err)
		}
	}
	ids := rt.recordIDs
	rt.mu.Unlock()
	for _, id := range ids {
		fmt.Fprintf(rt.stderr, "octet-host: recorded session %s (octet-host inspect %s)\n", id, id)
	}
	_ = rt.store.Close()
}

// redactForTrace hides known secret values in traced frames.
func redactForTrace(frame []byte, secrets []string) string {
	s := string(frame)
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, recording.Redacted)
		}
	}
	return s
}
