package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// certifyTable is a [certify] table for the raw fixture under an author's name: typed and
// echo are called, everything else is skipped with a reason.
const certifyTable = `
[certify]
tools = [
  { name = "typed", examples = [{ count = 7, label = "example" }] },
  { name = "echo" },
  { name = "suite_args", skip = true, reason = "not this test's business" },
  { name = "fail_with", skip = true, reason = "answers the error it is told" },
  { name = "slow", skip = true, reason = "waits" }, { name = "ignore_cancel", skip = true, reason = "waits" },
  { name = "progress_n", skip = true, reason = "scales" }, { name = "print_stdout", skip = true, reason = "prints" },
  { name = "crash", skip = true, reason = "exits the process on purpose" }, { name = "callback_n", skip = true, reason = "scales" },
  { name = "big_result", skip = true, reason = "oversized" }, { name = "publish", skip = true, reason = "publishes" },
  { name = "register_dynamic", skip = true, reason = "catalog" }, { name = "unregister_dynamic", skip = true, reason = "catalog" },
  { name = "ask", skip = true, reason = "service" }, { name = "secret", skip = true, reason = "service" },
  { name = "present", skip = true, reason = "service" }, { name = "spawn_child", skip = true, reason = "service" },
  { name = "kv_commit", skip = true, reason = "service" }, { name = "kv_get", skip = true, reason = "service" },
  { name = "arm_stuck_shutdown", skip = true, reason = "hangs shutdown" }, { name = "notify", skip = true, reason = "service" },
  { name = "contribute", skip = true, reason = "service" }, { name = "policy", skip = true, reason = "service" },
  { name = "kv_list", skip = true, reason = "service" }, { name = "agent_op", skip = true, reason = "service" },
  { name = "sandbox_probe", skip = true, reason = "probes the sandbox" },
]
`

func writeAuthorExtension(t *testing.T, bin, mode string) string {
	t.Helper()
	dir := writeRawExtension(t, t.TempDir(), "go", "author-tools", bin, mode)
	f, err := os.OpenFile(filepath.Join(dir, "extension.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(certifyTable); err != nil {
		t.Fatal(err)
	}
	return dir
}

// certify calls the author's tools: the text report shows the calls per tool and the
// skipped tools with their reasons, the [certify] example is among the calls, and a
// tool that breaks its output_schema fails with the command line that replays it.
func TestCertifyCallsTheAuthorsTools(t *testing.T) {
	bin := buildRawFixture(t)
	good := writeAuthorExtension(t, bin, "")
	code, out, errOut := octetHost(t, "", "certify", "--check", "tools.valid_arguments", "--calls", "3", "--seed", "9", good)
	if code != exitOK {
		t.Fatalf("certify: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"PASS  tools.valid_arguments", "tools (called by the tools.* checks", "PASS  typed", "PASS  echo",
		"SKIP  crash", "skipped: exits the process on purpose", "tool calls"} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	// --calls 3 plus the example: 4 calls of typed.
	typedLine := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "PASS  typed ") {
			typedLine = l
		}
	}
	if !strings.HasSuffix(typedLine, " 4 calls, 4 passed") {
		t.Errorf("typed should have 3 generated calls and the example:\n%s", out)
	}

	code, out, _ = octetHost(t, "", "certify", "--json", "--check", "tools.valid_arguments", writeAuthorExtension(t, bin, "typed-output-break"))
	var rep struct {
		Failed int
		Tools  []struct{ Name, Status, Failure string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("certify --json: %v\n%s", err, out)
	}
	if code != exitFailed || rep.Failed != 1 {
		t.Fatalf("a tool breaking its output_schema: exit %d, %d failed\n%s", code, rep.Failed, out)
	}
	for _, tr := range rep.Tools {
		if tr.Name == "typed" && (tr.Status != "fail" || !strings.Contains(tr.Failure, `typed '{"count":0,"label":"x"}'`)) {
			t.Errorf("typed in JSON: %+v; want fail with the replay command", tr)
		}
	}
	if code, _, _ := octetHost(t, "", "certify", "--calls", "0", good); code != exitStartup {
		t.Errorf("--calls 0: exit %d, want %d", code, exitStartup)
	}
}

// assertToolsCalled checks a certify --json report called every tool of a scaffold and
// passed each.
func assertToolsCalled(t *testing.T, out string) {
	t.Helper()
	var rep struct {
		Tools []struct {
			Name, Status  string
			Calls, Passed int
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("certify --json: %v", err)
	}
	if len(rep.Tools) == 0 {
		t.Fatalf("certify called none of the scaffold's tools:\n%s", out)
	}
	for _, tr := range rep.Tools {
		if tr.Status != "pass" || tr.Calls < 3 || tr.Passed != tr.Calls {
			t.Errorf("scaffold tool %s: %s, %d calls, %d passed; want every generated call passed", tr.Name, tr.Status, tr.Calls, tr.Passed)
		}
	}
}
