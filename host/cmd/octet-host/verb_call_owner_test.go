package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// call --as-owner is the CLI's route to the session owner's private tools: the model's
// route (plain call) refuses a private tool, the owner's route calls it, another extension
// is not the owner, and an operator denial wins over the owner.
func TestCallAsOwnerReachesPrivateTools(t *testing.T) {
	e := newEnv(t)
	owner := testext.Write(t, e.exts, testext.Ext{Name: "own", Tools: []string{"echo", "fail"},
		Extra: "[session]\nowner = true\nprivate_tools = [\"echo\"]\n"})
	other := testext.Write(t, e.exts, testext.Ext{Name: "plain", Tools: []string{"echo"}})
	reason := func(out string) string {
		var l struct {
			Error struct{ Kind, Reason string }
		}
		json.Unmarshal([]byte(out), &l)
		return l.Error.Kind + "/" + l.Error.Reason
	}
	code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, owner, "echo", `{"v":1}`)
	if code != exitFailed || reason(out) != "tool_not_allowed/private" {
		t.Fatalf("the model's route to a private tool: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = octetHost(t, "", "call", "--as-owner", "--state", e.state, "--config", e.config, owner, "echo", `{"v":1}`)
	if code != exitOK || !strings.Contains(out, `{\"v\":1}`) {
		t.Fatalf("the owner's route: exit %d %s %s", code, out, errOut)
	}
	code, out, errOut = octetHost(t, "", "call", "--as-owner", "--state", e.state, "--config", e.config, other, "echo", `{"v":1}`)
	if code != exitFailed || reason(out) != "tool_not_allowed/not_owner" {
		t.Fatalf("--as-owner of a non-owner: exit %d %s %s", code, out, errOut)
	}
	if err := os.WriteFile(e.config, []byte("denied_tools = [\"own/echo\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = octetHost(t, "", "call", "--as-owner", "--state", e.state, "--config", e.config, owner, "echo", `{"v":1}`)
	if code != exitFailed || reason(out) != "tool_not_allowed/denied" {
		t.Fatalf("an operator denial under --as-owner: exit %d %s %s", code, out, errOut)
	}
}
