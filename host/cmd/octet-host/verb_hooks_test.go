package main

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

const hookedExtra = "hooks = [\"before_tool_call\", \"after_tool_call\", \"before_prompt\"]\n"

// `call` applies the before_tool_call and after_tool_call dispositions of every extension
// that registered them: a block is never sent, a replace changes what is sent (still
// checked against the tool's schema) or what is printed.
func TestCallAppliesHookDispositions(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "guard", Tools: []string{"echo", "strict"}, Extra: hookedExtra})
	common := []string{"call", "--trace", "--state", e.state, "--config", e.config, "--workspace", e.base, dir}
	code, out, errOut := octetHost(t, "", append(common, "echo", `{"hook":"rewrite"}`, "strict", `{"hook":"rewrite"}`, "echo", `{"hook":"replace"}`)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[0], `{\"n\":7}`) || !strings.Contains(lines[1], `{\"n\":7}`) || lines[2] != `{"content":[{"text":"replaced by hook","type":"text"}],"is_error":false}` {
		t.Fatalf("rewrite/replace: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = octetHost(t, "", append(common, "echo", `{"hook":"block"}`)...)
	if code != exitFailed || !strings.Contains(out, `"kind":"hook_blocked"`) || !strings.Contains(out, "no thanks") {
		t.Fatalf("block: %d\n%s", code, out)
	}
	if strings.Contains(errOut, `"method":"tool/call"`) {
		t.Errorf("a blocked call was sent:\n%s", errOut)
	}
	code, out, _ = octetHost(t, "", append(common, "echo", `{"hook":"block_after"}`)...)
	if code != exitFailed || !strings.Contains(out, `"kind":"hook_blocked"`) || strings.Contains(out, `"content"`) {
		t.Fatalf("block after: %d\n%s", code, out)
	}
	code, out, _ = octetHost(t, "", append(common, "echo", `{"hook":"fail"}`)...)
	if code != exitFailed || !strings.Contains(out, `"kind":"hook_failed"`) {
		t.Fatalf("failing hook: %d\n%s", code, out)
	}
}

func TestRunAppliesHookDispositions(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "guard", Tools: []string{"echo"}, Extra: hookedExtra})
	stdin := "call echo {\"hook\":\"replace\"}\ncall echo {\"hook\":\"block\"}\nprompt rewrite me\nprompt forbidden\nquit\n"
	code, out, errOut := octetHost(t, stdin, "run", "--state", e.state, "--config", e.config, "--global-dir", e.global, dir)
	if code != 0 {
		t.Fatalf("run: %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{`"text":"replaced by hook"`, `"kind":"hook_blocked"`, `{"prompt":"rewritten"}`, `not that`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
