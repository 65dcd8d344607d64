package main

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/internal/testext"
)

// The host checks every result before `call` prints it: an unknown member, a
// structured_content breaking the declared output_schema and an image naming an artifact
// the process never published each exit 1 with a line naming what broke, and the
// refused result itself is never printed.
func TestCallRefusesBadResults(t *testing.T) {
	e := newEnv(t)
	dir := testext.Write(t, e.exts, testext.Ext{Name: "liar", Tools: []string{"echo", "strict", "bad_field", "bad_structured", "foreign_image"}})
	common := []string{"call", "--record", "--trace", "--state", e.state, "--config", e.config, "--workspace", e.base, dir}
	for _, tc := range []struct {
		tool  string
		wants []string
	}{
		{"bad_field", []string{`"kind":"result_refused"`, `"schema":"ToolResult"`, `"rule":"additionalProperties"`, `unknown field \"colour\"`}},
		{"bad_structured", []string{`"kind":"result_refused"`, `"schema":"output_schema"`, `"pointer":"/structured_content/count"`, `"rule":"type"`}},
		{"foreign_image", []string{`"kind":"result_refused"`, `"schema":"artifact_fence"`, `"pointer":"/content/1"`, `"rule":"owner_generation"`, `unavailable to this owner and generation`}},
	} {
		code, out, errOut := octetHost(t, "", append(common, tc.tool)...)
		if code != exitFailed {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", tc.tool, code, exitFailed, out, errOut)
		}
		for _, w := range append(tc.wants, `"tool":"`+tc.tool+`"`, "extension liar") {
			if !strings.Contains(out, w) {
				t.Errorf("%s: stdout does not name %s:\n%s", tc.tool, w, out)
			}
		}
		if strings.Contains(out, `"content"`) {
			t.Errorf("%s: the refused result was printed:\n%s", tc.tool, out)
		}
		if !strings.Contains(errOut, `"direction":"host","extension":"liar","generation":1,"kind":"rejected"`) {
			t.Errorf("%s: the trace has no rejection event:\n%s", tc.tool, errOut)
		}
	}
	// Arguments the tool's own schema forbids are refused before sending.
	code, out, errOut := octetHost(t, "", append(common, "strict", `{"n":"x"}`)...)
	if code != exitFailed || !strings.Contains(out, `"kind":"arguments_refused"`) || !strings.Contains(out, `"pointer":"/n"`) {
		t.Fatalf("strict: %d\n%s", code, out)
	}
	if strings.Contains(errOut, `"method":"tool/call"`) {
		t.Errorf("the refused arguments were sent:\n%s", errOut)
	}
	// The recording holds the host's note beside the refused answer.
	code, out, _ = octetHost(t, "", "inspect", "--state", e.state)
	if code != 0 {
		t.Fatalf("inspect: %d %s", code, out)
	}
	session := ""
	for _, f := range strings.Fields(out) {
		if strings.HasSuffix(f, "-liar") {
			session = f
		}
	}
	code, out, _ = octetHost(t, "", "inspect", "--state", e.state, "--verbose", session)
	if code != 0 || !strings.Contains(out, "host/rejected") || !strings.Contains(out, `\"rule\":\"additionalProperties\"`) && !strings.Contains(out, `"rule":"additionalProperties"`) {
		t.Fatalf("inspect %s: %d\n%s", session, code, out)
	}
}
