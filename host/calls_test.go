package host_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
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
	// Declared in the manifest and not narrowed by the handshake: sent, and fakeext answers.
	if out, err := e.RunHook(t.Context(), "before_prompt", map[string]any{"prompt": "x"}); err != nil || !strings.Contains(string(out), `"continue"`) {
		t.Fatalf("hook/run not sent: %s %v", out, err)
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
