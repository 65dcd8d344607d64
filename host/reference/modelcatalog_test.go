package reference_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
)

// notAllowed asserts err is a *host.ToolNotAllowedError with reason.
func notAllowed(t *testing.T, err error, reason string) {
	t.Helper()
	var na *host.ToolNotAllowedError
	if !errors.As(err, &na) || na.Reason != reason {
		t.Fatalf("want a refusal (%s), got %#v", reason, err)
	}
	if !strings.Contains(err.Error(), "is not in the model's catalog ("+reason+")") {
		t.Fatalf("message shape: %v", err)
	}
}

func catalogNames(m *host.ModelCatalog) string {
	var names []string
	for _, e := range m.Tools {
		names = append(names, e.Extension+"/"+e.Tool.Name)
	}
	return strings.Join(names, ",")
}

func startOwnerSet(t *testing.T, lang string, denied []string) (*reference.Host, *reference.Session) {
	t.Helper()
	state := t.TempDir()
	h, err := reference.Open(context.Background(), reference.Options{Host: host.Options{StateDir: state, Workspace: state, DeniedTools: denied}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	if _, err := h.StartDirs(context.Background(), exampleDir(t, lang, "session-owner"), exampleDir(t, lang, "hello-world"), fixtureDir(t, lang)); err != nil {
		t.Fatal(err)
	}
	sess, err := h.BeginSession()
	if err != nil {
		t.Fatal(err)
	}
	return h, sess
}

func TestOwnerCatalog(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			h, sess := startOwnerSet(t, lang, nil)
			ctx := context.Background()
			turn := sess.TurnStarted()
			m := h.ModelCatalog()
			if !m.Trusted || catalogNames(m) != "hello-world/hello_world,session-owner/policy_status" {
				t.Fatalf("model catalog %v (trusted %v)", catalogNames(m), m.Trusted)
			}
			call := func(ext, tool string, args string) error {
				_, err := sess.CallTool(ctx, h.Extension(ext), turn, tool, json.RawMessage(args))
				return err
			}
			if err := call("hello-world", "hello_world", `{"name":"Ada"}`); err != nil {
				t.Fatal(err)
			}
			notAllowed(t, call("conformance-fixture", "echo", `{"value":1}`), "not_allowed")
			notAllowed(t, call("session-owner", "audit_log", `{}`), "private")
			// Hidden from the model, still callable by its owner.
			out, err := sess.CallOwnerTool(ctx, turn, "audit_log", json.RawMessage(`{}`))
			if err != nil || !strings.Contains(string(out), "prompts judged") {
				t.Fatalf("the owner's private tool: %s %v", out, err)
			}
			// A catalog failure: the owner is gone. The last trusted catalog stays enforced
			// (narrowed to what still exists), never the whole catalog.
			h.Extension("session-owner").Stop("disable")
			m = h.ModelCatalog()
			if m.Trusted || catalogNames(m) != "hello-world/hello_world" {
				t.Fatalf("after the owner stopped: %v (trusted %v)", catalogNames(m), m.Trusted)
			}
			notAllowed(t, call("conformance-fixture", "echo", `{"value":1}`), "untrusted")
			if err := call("hello-world", "hello_world", `{"name":"Ada"}`); err != nil {
				t.Fatalf("a trusted tool while the owner is down: %v", err)
			}
		})
	}
}

func TestOperatorDenialsWin(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			h, sess := startOwnerSet(t, lang, []string{"hello-world/*", "session-owner/audit_*"})
			ctx := context.Background()
			turn := sess.TurnStarted()
			if got := catalogNames(h.ModelCatalog()); got != "session-owner/policy_status" {
				t.Fatalf("model catalog %v", got)
			}
			_, err := sess.CallTool(ctx, h.Extension("hello-world"), turn, "hello_world", json.RawMessage(`{"name":"Ada"}`))
			notAllowed(t, err, "denied") // the owner allows hello-world/*; the operator wins
			_, err = sess.CallOwnerTool(ctx, turn, "audit_log", json.RawMessage(`{}`))
			notAllowed(t, err, "denied")
			_, err = sess.CallOwnerTool(ctx, turn, "echo", json.RawMessage(`{"value":1}`))
			notAllowed(t, err, "not_owner") // the owner path reaches only the owner's tools
			h.Extension("session-owner").Stop("disable")
			_, err = sess.CallTool(ctx, h.Extension("hello-world"), turn, "hello_world", json.RawMessage(`{"name":"Ada"}`))
			notAllowed(t, err, "denied")
		})
	}
}
