package host_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func TestTypedCallsRefuseUnregisteredLocally(t *testing.T) {
	f := newFixture(t)
	h, _, err := f.start([]*discovery.Entry{f.entry(testext.Ext{Name: "typed", Extra: "commands = [\"checkpoint\"]\nhooks = [\"before_prompt\"]\n"})})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Extension("typed")
	// Declared and registered: sent, and fakeext answers it.
	if out, err := e.ExecuteCommand(t.Context(), "checkpoint", nil); err != nil || !strings.Contains(string(out), "ran checkpoint") {
		t.Fatalf("command/execute not sent: %s %v", out, err)
	}
	var we *jsonrpc.Error
	// Declared in the manifest and not narrowed by the handshake: sent.
	if _, err := e.RunHook(t.Context(), "before_prompt", map[string]any{"prompt": "x"}); !errors.As(err, &we) || we.Code != -32601 {
		t.Fatalf("hook/run not sent: %v", err)
	}
	for name, err := range map[string]error{
		"command": func() error { _, err := e.ExecuteCommand(t.Context(), "other", nil); return err }(),
		"hook": func() error {
			_, err := e.RunHook(t.Context(), "after_response", map[string]any{"response": "x"})
			return err
		}(),
		"status":  func() error { _, err := e.CollectStatus(t.Context(), "footer"); return err }(),
		"context": func() error { _, err := e.CollectContext(t.Context(), nil); return err }(),
		"render":  func() error { _, err := e.RenderTool(t.Context(), "echo", nil, nil); return err }(),
	} {
		if err == nil || !strings.Contains(err.Error(), "did not register") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
