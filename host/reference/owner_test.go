package reference_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/reference"
)

// These tests back docs/host.md "The session owner": the session-owner example of each
// language runs as a real process and owns the session.

// exampleDir is examples/<lang>/<name>, ready to start (see fixtureDir).
func exampleDir(t testing.TB, lang, name string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "examples", lang, name)
	switch lang {
	case "go":
		build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", dir, err, out)
		}
	case "typescript":
		if _, err := os.Stat(filepath.Join(dir, "dist", "extension.js")); err != nil {
			t.Skipf("%s is not built (go run mage.go buildTypeScript)", dir)
		}
		if _, err := exec.LookPath("node"); err != nil {
			t.Skip("no node on PATH")
		}
	}
	return dir
}

// stateLog records the lifecycle events in order.
type stateLog struct {
	mu     sync.Mutex
	events []host.Event
}

func (l *stateLog) add(e host.Event) { l.mu.Lock(); l.events = append(l.events, e); l.mu.Unlock() }

// order lists the extensions that reached state, in the order they reached it.
func (l *stateLog) order(state host.State) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, e := range l.events {
		if e.State == state {
			out = append(out, e.Extension)
		}
	}
	return out
}

func openOwnerHost(t *testing.T, log *stateLog) *reference.Host {
	t.Helper()
	state := t.TempDir()
	opts := reference.Options{Host: host.Options{StateDir: state, Workspace: state}}
	if log != nil {
		opts.Host.OnEvent = log.add
	}
	h, err := reference.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// writeExtension writes a shell-script extension named name whose manifest carries extra
// and whose entrypoint runs script; it returns its discovered entry.
func writeExtension(t *testing.T, name, extra, script string) *discovery.Entry {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	toml := "name = \"" + name + "\"\nversion = \"0.1.0\"\napi_version = \"0.4\"\n[entrypoint]\ncommand = \"run\"\n" + extra
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := reference.Entry(dir)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestOwnerHooksFailClosed(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			dir := exampleDir(t, lang, "session-owner")
			h := openOwnerHost(t, nil)
			ctx := context.Background()
			owner, err := h.StartDir(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			if h.Owner() != "session-owner" {
				t.Fatalf("Owner() = %q", h.Owner())
			}
			if p, err := h.BeforePrompt(ctx, "summarise the diff"); err != nil || p != "summarise the diff" {
				t.Fatalf("an allowed prompt: %q %v", p, err)
			}
			var blocked *host.HookBlockedError
			if _, err := h.BeforePrompt(ctx, "what is my password?"); !errors.As(err, &blocked) {
				t.Fatalf("a denied topic: %v", err)
			}
			// The owner's hook fails: the turn stops with a classified error.
			var he *host.HookError
			_, err = h.BeforePrompt(ctx, "ring \a the bell")
			if !errors.As(err, &he) || !he.Owner || he.Kind() != "refused" || he.Extension != "session-owner" || he.Hook != "before_prompt" {
				t.Fatalf("a failing owner hook: %#v", err)
			}
			if !strings.Contains(err.Error(), "session owner session-owner: before_prompt hook failed (refused), the turn is stopped") ||
				!strings.Contains(err.Error(), "control characters") {
				t.Fatalf("message shape: %v", err)
			}
			// An owner that is not running cannot be skipped as an observer would be.
			owner.Stop("disable")
			_, err = h.BeforePrompt(ctx, "summarise the diff")
			if !errors.As(err, &he) || !he.Owner || he.Kind() != "unavailable" {
				t.Fatalf("a stopped owner: %#v", err)
			}
		})
	}
}

func TestSecondOwnerFailsStartupNamingBoth(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			first, err := reference.Entry(exampleDir(t, lang, "session-owner"))
			if err != nil {
				t.Fatal(err)
			}
			marker := filepath.Join(t.TempDir(), "started")
			second := writeExtension(t, "another-owner", "[session]\nowner = true\n", "touch '"+marker+"'; exit 1")
			h := openOwnerHost(t, nil)
			_, err = h.Start(context.Background(), []*discovery.Entry{first, second}, nil)
			var se *host.StartupError
			var oc *host.OwnerConflictError
			if !errors.As(err, &se) || se.Kind != host.StartupOwnerConflict || !errors.As(err, &oc) {
				t.Fatalf("want an owner_conflict startup error, got %#v", err)
			}
			if oc.First != "another-owner" || oc.Second != "session-owner" ||
				!strings.Contains(err.Error(), "extensions another-owner and session-owner both declare [session] owner = true") {
				t.Fatalf("the error must name both: %v", err)
			}
			if len(h.Extensions()) != 0 {
				t.Fatalf("something was set up: %v", h.Status())
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the second owner's process was started")
			}
		})
	}
}

func TestRequiredFailureStopsActivatedInReverse(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			owner, err := reference.Entry(exampleDir(t, lang, "session-owner"))
			if err != nil {
				t.Fatal(err)
			}
			hello, err := reference.Entry(exampleDir(t, lang, "hello-world"))
			if err != nil {
				t.Fatal(err)
			}
			broken := writeExtension(t, "broken-required", "", "echo 'cannot bind' >&2; exit 3")
			log := &stateLog{}
			h := openOwnerHost(t, log)
			_, err = h.Start(context.Background(), []*discovery.Entry{owner, hello, broken}, []string{"broken-required"})
			var se *host.StartupError
			if !errors.As(err, &se) || se.Kind != host.StartupRequiredFailed || se.Required != "broken-required" {
				t.Fatalf("want required_failed for broken-required, got %#v", err)
			}
			h.Close() // flushes the event queue
			ready, stopped := log.order(host.StateReady), log.order(host.StateStopped)
			if strings.Join(ready, ",") != "hello-world,session-owner" {
				t.Fatalf("ready order %v", ready)
			}
			if len(stopped) < 2 || stopped[0] != "session-owner" || stopped[1] != "hello-world" {
				t.Fatalf("stopped %v, want session-owner then hello-world (reverse of %v)", stopped, ready)
			}
		})
	}
}

// The owner binds the session: if it cannot start, nothing runs, though nobody listed it.
func TestFailedOwnerIsRequired(t *testing.T) {
	h := openOwnerHost(t, nil)
	owner := writeExtension(t, "failing-owner", "[session]\nowner = true\n", "exit 3")
	_, err := h.Start(context.Background(), []*discovery.Entry{owner}, nil)
	var se *host.StartupError
	if !errors.As(err, &se) || se.Kind != host.StartupRequiredFailed || se.Required != "failing-owner" {
		t.Fatalf("want required_failed for the owner, got %#v", err)
	}
}
