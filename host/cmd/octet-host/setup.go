package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/script"
)

// optionsHook changes the reference host's options just before it opens (hostFlags.wire).
type optionsHook = func(*reference.Options)

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
	settings  map[string]map[string]any // [extensions.NAME.settings], workspace over user
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
	var proj admission.Config
	if trusted {
		// A trusted workspace may suggest enablement and set settings, never trust.
		var warnings []string
		if proj, warnings, err = admission.LoadProjectConfig(admission.ProjectConfigPath(ws)); err != nil {
			return nil, err
		}
		for _, w := range warnings {
			fmt.Fprintln(os.Stderr, "octet-host:", w)
		}
		if withGlobal {
			cfg.EnabledExtensions = append(cfg.EnabledExtensions, proj.EnabledExtensions...)
		}
		cfg.RequiredExtensions = append(cfg.RequiredExtensions, proj.RequiredExtensions...)
		cfg.DeniedTools = append(cfg.DeniedTools, proj.DeniedTools...)
	}
	global := ""
	if withGlobal {
		global = hf.globalDir
	}
	dirs := append(append([]string{}, hf.extensionDirs...), explicitStart...)
	roots := discovery.Roots(global, ws, trusted && withGlobal, dirs)
	res := discovery.Discover(roots, manifest.Options{OctetVersion: host.OctetVersion})
	return &selection{
		workspace: ws, trusted: trusted, config: cfg, result: res, settings: admission.MergeSettings(cfg, proj),
		policy: admission.Policy{
			Enabled: cfg.EnabledExtensions, EnableOnce: hf.enable, PersistentTrust: append(cfg.TrustedExtensions, envGrants...),
			TrustOnce: hf.trust, Explicit: explicitStart, SafeMode: hf.safeMode, FullAccess: hf.fullAccess,
		},
	}, nil
}

// newRuntime opens the reference host for the selected extensions: the state store, the
// script, the services router and the frame taps (--trace, --record). Nothing starts yet.
// events, when set, receives status changes (the run console). red is the verb's redactor,
// the same one its output writers use, so a secret input answer registered by the router
// is hidden on the console too.
func (hf *hostFlags) newRuntime(sel *selection, stderr io.Writer, events io.Writer, red *redact.Redactor) (*reference.Host, error) {
	var sc *script.Script
	if hf.script != "" {
		var err error
		if sc, err = script.Load(hf.script); err != nil {
			return nil, err
		}
	}
	session := host.Session{}
	if hf.model != "" {
		provider, id, ok := strings.Cut(hf.model, "/")
		if !ok || provider == "" || id == "" {
			return nil, fmt.Errorf("--model %q must be PROVIDER/ID", hf.model)
		}
		session.Model = &host.Model{Provider: provider, ID: id}
	}
	opts := reference.Options{
		Host: host.Options{
			StateDir: hf.stateDir, Workspace: sel.workspace, WorkspaceTrusted: sel.trusted,
			PassEnv:  append(append([]string{}, sel.config.PassEnv...), hf.passEnv...),
			Settings: sel.settings,
			Session:  session, RequestTimeout: hf.timeout, DeniedTools: sel.config.DeniedTools,
			Subreaper:  true, // this process is the host and nothing else
			Unconfined: unconfined(hf.noSandbox, sel.config),
		},
		Script:   sc,
		Asker:    hf.asker,
		Record:   hf.record,
		Redactor: red,
		Warnf:    func(format string, args ...any) { fmt.Fprintf(stderr, "octet-host: "+format+"\n", args...) },
	}
	opts.Host.OnIdempotencyWait = func(ext, key, holder string) {
		fmt.Fprintf(stderr, "octet-host: %s: idempotency key %q is held by a call still running (%s); waiting for its result\n", ext, key, holder)
	}
	if hf.trace {
		opts.Trace = stderr
	}
	// Progress, notifications, confirmations, input and presentation snapshots, as text:
	// on the console for `run`, on stderr for `call` (whose stdout is its JSON lines).
	opts.Events = eventPrinter{w: stderr}
	if events != nil {
		opts.Events = eventPrinter{w: events}
	}
	if events != nil {
		opts.Host.OnEvent = func(ev host.Event) {
			if ev.Message != "" {
				fmt.Fprintf(events, "[%s] %s (generation %d): %s\n", ev.Extension, ev.State, ev.Generation, ev.Message)
			} else {
				fmt.Fprintf(events, "[%s] %s (generation %d)\n", ev.Extension, ev.State, ev.Generation)
			}
		}
	}
	if hf.wire != nil {
		hf.wire(&opts)
	}
	return reference.Open(context.Background(), opts)
}

// closeRuntime shuts every extension down (bounded), closes the store and names the
// recordings written, so the user can inspect them with a command that works when pasted
// (the same --state, and octet-host as it can be found from a new shell).
func closeRuntime(rt *reference.Host, stateDir string, stderr io.Writer) {
	if err := rt.Close(); err != nil {
		fmt.Fprintf(stderr, "octet-host: %v\n", err)
	}
	self, elsewhere := selfCommand()
	for _, id := range rt.Recordings() {
		fmt.Fprintf(stderr, "octet-host: recorded session %s (%s inspect%s %s)\n", id, self, stateHint(stateDir, elsewhere), id)
	}
}
