package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/octet-kit/octet/host"
)

// consoleConfigure is the run console's `configure [--dry-run] NAME JSON`: the settings
// object is checked against NAME's settings schema and delivered to the running process
// without a restart. A refusal (the schema's or the extension's) keeps the settings in force.
func consoleConfigure(ctx context.Context, rest string, h *host.Host, out io.Writer) {
	dry := false
	if r, ok := strings.CutPrefix(rest, "--dry-run "); ok {
		dry, rest = true, strings.TrimSpace(r)
	}
	name, doc, _ := strings.Cut(rest, " ")
	e := h.Extension(name)
	if e == nil {
		fmt.Fprintf(out, "configure: no extension %q\n", name)
		return
	}
	var values map[string]any
	dec := json.NewDecoder(strings.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&values); err != nil || dec.More() {
		fmt.Fprintf(out, "configure: want configure [--dry-run] NAME {settings object}: %v\n", err)
		return
	}
	fmt.Fprintln(out, configureLine(ctx, e, values, dry))
}

// configureLine applies values to e and words the outcome as one JSON line.
func configureLine(ctx context.Context, e *host.Extension, values map[string]any, dry bool) string {
	b, _ := json.Marshal(configureOutcome(ctx, e, values, dry))
	return string(b)
}

// configureOutcome applies values to e: the extension, the dry-run flag, the revision in
// force after it, and accepted, the extension's refusal reasons, or the error.
func configureOutcome(ctx context.Context, e *host.Extension, values map[string]any, dry bool) map[string]any {
	res, err := e.Configure(ctx, values, dry)
	line := map[string]any{"configure": e.Name(), "dry_run": dry, "revision": res.Revision}
	var refused *host.ConfigureRefusedError
	var invalid *host.SettingsError
	switch {
	case errors.As(err, &refused):
		line["refused"] = refused.Reasons
	case errors.As(err, &invalid):
		line["error"] = map[string]any{"kind": "settings_invalid", "message": invalid.Error(), "key": invalid.Key, "pointer": invalid.Pointer, "rule": invalid.Rule}
	case err != nil:
		line["error"] = describeError(err)
	default:
		line["accepted"] = true
	}
	return line
}

// settingsWatch delivers changed settings to running extensions when a config file changes
// (`octet-host dev`): on every tick it compares the files' bytes, and when they differ it
// reloads the settings and configures each named extension whose settings changed.
type settingsWatch struct {
	files  []string
	load   func() (map[string]map[string]any, error)
	h      *host.Host
	names  []string
	out    io.Writer
	last   map[string]string         // file -> bytes at the last look ("" absent)
	values map[string]map[string]any // settings in force
}

func (w *settingsWatch) snapshot() map[string]string {
	m := map[string]string{}
	for _, f := range w.files {
		b, _ := os.ReadFile(f)
		m[f] = string(b)
	}
	return m
}

// check looks once; it reports whether the files changed.
func (w *settingsWatch) check(ctx context.Context) bool {
	now := w.snapshot()
	if reflect.DeepEqual(now, w.last) {
		return false
	}
	w.last = now
	next, err := w.load()
	if err != nil {
		fmt.Fprintf(w.out, "octet-host dev: settings not reloaded: %v\n", err)
		return true
	}
	for _, name := range w.names {
		if reflect.DeepEqual(next[name], w.values[name]) {
			continue
		}
		e := w.h.Extension(name)
		if e == nil {
			continue
		}
		line := configureLine(ctx, e, next[name], false)
		fmt.Fprintf(w.out, "octet-host dev: %s\n", line)
		if cur, _ := e.Settings(); reflect.DeepEqual(cur, next[name]) {
			w.values[name] = next[name]
		}
	}
	return true
}

// run checks on every tick until ctx ends.
func (w *settingsWatch) run(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
			w.check(ctx)
		}
	}
}

func newSettingsWatch(files []string, load func() (map[string]map[string]any, error), h *host.Host, names []string, initial map[string]map[string]any, out io.Writer) *settingsWatch {
	w := &settingsWatch{files: slices.Clone(files), load: load, h: h, names: names, out: out, values: map[string]map[string]any{}}
	for _, n := range names {
		w.values[n] = initial[n]
	}
	w.last = w.snapshot()
	return w
}
