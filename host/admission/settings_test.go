package admission

import (
	"strings"
	"testing"
)

// TestWorkspaceSettingsOverUser: a trusted workspace's settings win key by key over the
// user's, the user's other keys stay, and a workspace cannot turn an extension's sandbox off.
func TestWorkspaceSettingsOverUser(t *testing.T) {
	user, err := LoadConfig(writeConfig(t, `
[extensions.mcp.settings]
limit = 3
greeting = "user"
[extensions.other.settings]
x = 1
`))
	if err != nil {
		t.Fatal(err)
	}
	ws, warnings, err := LoadProjectConfig(writeConfig(t, `
enabled_extensions = ["mcp"]
[extensions.mcp]
sandbox = "off"
[extensions.mcp.settings]
greeting = "workspace"
[extensions.mcp.settings.nested]
"ключ" = "<&>\\"
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "extensions.mcp.sandbox ignored") {
		t.Fatalf("warnings = %v", warnings)
	}
	if ws.Extensions["mcp"].Sandbox != "" {
		t.Fatalf("a workspace set the sandbox: %+v", ws.Extensions["mcp"])
	}
	got := MergeSettings(user, ws)
	mcp := got["mcp"]
	if mcp["greeting"] != "workspace" || mcp["limit"] != int64(3) {
		t.Fatalf("merged mcp = %#v", mcp)
	}
	if nested, _ := mcp["nested"].(map[string]any); nested["ключ"] != `<&>\` {
		t.Fatalf("nested = %#v", mcp["nested"])
	}
	if got["other"]["x"] != int64(1) {
		t.Fatalf("merged other = %#v", got["other"])
	}
}
