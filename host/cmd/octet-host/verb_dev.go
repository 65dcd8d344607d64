package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/devui"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/reference"
)

const devHelp = `
Usage: octet-host dev [flags] DIR...

Starts the extensions in the DIRs (enabled and trusted for this invocation only, as with
call), records every frame, and serves the web inspector on 127.0.0.1 until interrupted:
state, negotiated version and features, restarts and stderr; tools with forms built from
their parameters schema, commands and hooks; a live frame log, progress, notifications,
presentation snapshots, confirmations and input answered from the page; catalog revisions;
recorded sessions. See docs/inspector.md. A change to an extension's settings in the host
config or the workspace's .octet/config.toml is delivered to it without a restart.

It prints the URL to open, with a one-time token; the server answers nothing without that
token, from another Host or from another page's Origin, and listens on no other interface.

Exit codes: 0 stopped by an interrupt; 2 an extension could not start, or a usage error.

Examples:
  octet-host dev examples/go/hello-world
  octet-host dev --port 8765 --script answers.toml ./my-ext ./other-ext
`

// settingsPoll is how often dev looks at the config files for changed settings.
const settingsPoll = 500 * time.Millisecond

func init() {
	register("dev", verb{Summary: "start extensions and serve the web inspector on 127.0.0.1", Run: runDev})
}

func runDev(args []string, stdout, stderr io.Writer) int {
	red := redact.New()
	so, se := redact.NewWriter(red, stdout), redact.NewWriter(red, stderr)
	defer se.Flush()
	defer so.Flush()
	return devVerb(args, so, se, red)
}

func devVerb(args []string, stdout, stderr io.Writer, red *redact.Redactor) int {
	var hf hostFlags
	fs := flagSet("dev", devHelp, stderr)
	hf.addRun(fs)
	port := fs.Int("port", 0, "port on 127.0.0.1 (0: a free port)")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if fs.NArg() < 1 {
		fmt.Fprintln(stderr, "octet-host dev: want at least one DIR")
		return exitStartup
	}
	dirs := fs.Args()
	for _, d := range dirs {
		if _, err := os.Lstat(filepath.Join(d, manifest.FileName)); err != nil {
			fmt.Fprintf(stderr, "octet-host dev: %s has no %s\n", d, manifest.FileName)
			return exitStartup
		}
	}
	sel, err := hf.selectExtensions(dirs, false)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host dev:", err)
		return exitStartup
	}
	var entries []*discovery.Entry
	var names []string
	for _, d := range dirs {
		abs, _ := filepath.Abs(d)
		var entry *discovery.Entry
		for _, e := range sel.result.Entries {
			if e.Dir == abs {
				entry = e
			}
		}
		if entry == nil || !entry.Valid() {
			for _, diag := range sel.result.Diagnostics {
				fmt.Fprintln(stderr, diag.String())
			}
			fmt.Fprintf(stderr, "octet-host dev: %s is not a valid extension\n", d)
			return exitStartup
		}
		if dec := sel.policy.Admit(entry); dec.State != admission.Admitted {
			fmt.Fprintf(stderr, "octet-host dev: %s not started: %s: %s\n", entry.Name, dec.State, dec.Reason)
			return exitStartup
		}
		entries, names = append(entries, entry), append(names, entry.Name)
	}
	srv := devui.New(devui.Config{Replay: devReplayer(&hf)})
	hf.record = true // recorded sessions are one of the inspector's views
	hf.wire = srv.Wire
	if err := srv.Listen(*port); err != nil {
		fmt.Fprintln(stderr, "octet-host dev:", err)
		return exitStartup
	}
	rt, err := hf.newRuntime(sel, stderr, nil, red)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host dev:", err)
		return exitStartup
	}
	defer closeRuntime(rt, hf.stateDir, stderr)
	if _, err := rt.Start(context.Background(), entries, names); err != nil {
		fmt.Fprintln(stderr, "octet-host dev:", err)
		return exitStartup
	}
	sess, err := rt.BeginSession()
	if err != nil {
		fmt.Fprintln(stderr, "octet-host dev:", err)
		return exitStartup
	}
	defer sess.End("completed")
	srv.Attach(rt, sess)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A change to the settings in the host or workspace config reaches the running
	// extensions without a restart (settings_apply.go).
	watch := newSettingsWatch([]string{hf.configPath, admission.ProjectConfigPath(sel.workspace)}, func() (map[string]map[string]any, error) {
		s, err := hf.selectExtensions(dirs, false)
		if err != nil {
			return nil, err
		}
		return s.settings, nil
	}, rt.Host, names, sel.settings, reference.SyncWriter(stderr))
	// `octet-host configure` reaches them too, through this host's control socket.
	ctl, err := listenControl(hf.stateDir, rt.Host, func(name string) (map[string]any, error) {
		s, err := hf.selectExtensions(dirs, false)
		if err != nil {
			return nil, err
		}
		return s.settings[name], nil
	})
	if err != nil {
		fmt.Fprintln(stderr, "octet-host dev: octet-host configure cannot reach this host:", err)
	} else {
		defer ctl.Close()
	}
	ticker := time.NewTicker(settingsPoll)
	defer ticker.Stop()
	go watch.run(ctx, ticker.C)
	// The token is printed once, here; the redacting writer does not know it, so it reaches
	// the terminal as is.
	fmt.Fprintf(stdout, "octet-host dev: inspector at %s\n", srv.URL())
	if err := srv.Serve(ctx); err != nil {
		fmt.Fprintln(stderr, "octet-host dev:", err)
		return exitFailed
	}
	return exitOK
}
