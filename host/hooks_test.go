package host_test

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func startHooked(t *testing.T) *host.Host {
	t.Helper()
	base := t.TempDir()
	dir := testext.Write(t, filepath.Join(base, "exts"), testext.Ext{Name: "guard", Tools: []string{"echo", "strict"},
		Extra: "hooks = [\"before_tool_call\", \"after_tool_call\", \"before_prompt\"]\n"})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	h := host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond})
	if _, err := h.Start(t.Context(), res.Entries, []string{"guard"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Shutdown)
	return h
}

func TestBeforeToolCallDispositions(t *testing.T) {
	h := startHooked(t)
	args, err := h.BeforeToolCall(t.Context(), "echo", []byte(`{"hook":"none"}`))
	if err != nil || string(args) != `{"hook":"none"}` {
		t.Fatalf("continue: %s %v", args, err)
	}
	_, err = h.BeforeToolCall(t.Context(), "echo", []byte(`{"hook":"block"}`))
	var hb *host.HookBlockedError
	if !errors.As(err, &hb) || hb.Extension != "guard" || hb.Hook != "before_tool_call" || hb.Tool != "echo" || hb.Message != "no thanks" {
		t.Fatalf("block: %v", err)
	}
	args, err = h.BeforeToolCall(t.Context(), "echo", []byte(`{"hook":"rewrite"}`))
	if err != nil || string(args) != `{"n":7}` {
		t.Fatalf("replace: %s %v", args, err)
	}
	_, err = h.BeforeToolCall(t.Context(), "echo", []byte(`{"hook":"fail"}`))
	var he *host.HookError
	if !errors.As(err, &he) || he.Hook != "before_tool_call" {
		t.Fatalf("a failing hook must fail the call, got %v", err)
	}
}

func TestAfterToolCallDispositions(t *testing.T) {
	h := startHooked(t)
	result := []byte(`{"content":[{"type":"text","text":"original"}],"is_error":true,"metadata":{"k":1}}`)
	out, err := h.AfterToolCall(t.Context(), "echo", []byte(`{"hook":"replace"}`), result)
	if err != nil || string(out) != `{"content":[{"text":"replaced by hook","type":"text"}],"is_error":true,"metadata":{"k":1}}` {
		t.Fatalf("replace: %s %v", out, err)
	}
	out, err = h.AfterToolCall(t.Context(), "echo", []byte(`{}`), result)
	if err != nil || string(out) != string(result) {
		t.Fatalf("continue must pass the result on unchanged: %s %v", out, err)
	}
	_, err = h.AfterToolCall(t.Context(), "echo", []byte(`{"hook":"block_after"}`), result)
	var hb *host.HookBlockedError
	if !errors.As(err, &hb) || hb.Hook != "after_tool_call" || !strings.Contains(err.Error(), "withheld") {
		t.Fatalf("block: %v", err)
	}
}

func TestBeforePromptDispositions(t *testing.T) {
	h := startHooked(t)
	if p, err := h.BeforePrompt(t.Context(), "hello"); err != nil || p != "hello" {
		t.Fatalf("continue: %q %v", p, err)
	}
	if p, err := h.BeforePrompt(t.Context(), "rewrite me"); err != nil || p != "rewritten" {
		t.Fatalf("replace: %q %v", p, err)
	}
	var hb *host.HookBlockedError
	if _, err := h.BeforePrompt(t.Context(), "forbidden"); !errors.As(err, &hb) || hb.Message != "not that" {
		t.Fatalf("block: %v", err)
	}
}

// The host's hook points build one params value and send it to every extension in turn:
// the resource owner set for an API 0.4 extension must not reach the API 0.1 extension
// after it, whose frozen wire has no resource_owner.
func TestHookParamsCarryNoPreviousOwnerToAnAPI01Extension(t *testing.T) {
	base := t.TempDir()
	hooks := "hooks = [\"before_tool_call\"]\n"
	root := filepath.Join(base, "exts")
	testext.Write(t, root, testext.Ext{Name: "a-new", Tools: []string{"echo"}, Extra: hooks})
	testext.Write(t, root, testext.Ext{Name: "b-old", API: "0.1", Tools: []string{"old_echo"}, Extra: hooks})
	res := discovery.Discover([]discovery.Root{{Dir: root, Source: discovery.Explicit}}, manifest.Options{OctetVersion: host.OctetVersion})
	var mu sync.Mutex
	var order []string
	sent := map[string]string{}
	h := host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond,
		OnFrame: func(ext string, _ int64, dir jsonrpc.Direction, frame []byte) {
			if dir != jsonrpc.Outbound || !strings.Contains(string(frame), `"`+protocol.MethodHookRun+`"`) {
				return
			}
			mu.Lock()
			order = append(order, ext)
			sent[ext] = string(frame)
			mu.Unlock()
		}})
	if _, err := h.Start(t.Context(), res.Entries, []string{"a-new", "b-old"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Shutdown)
	if _, err := h.BeforeToolCall(t.Context(), "echo", []byte(`{"hook":"none"}`)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(order) != 2 || order[0] != "a-new" || order[1] != "b-old" {
		t.Fatalf("the hook should run on a-new, then b-old; it ran on %v", order)
	}
	if !strings.Contains(sent["a-new"], `"resource_owner"`) {
		t.Errorf("the API 0.4 extension's hook/run lacks its resource owner: %s", sent["a-new"])
	}
	if strings.Contains(sent["b-old"], `"resource_owner"`) {
		t.Errorf("the API 0.1 extension received the previous extension's resource owner: %s", sent["b-old"])
	}
}
