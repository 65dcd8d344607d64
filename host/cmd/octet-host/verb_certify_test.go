package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildRawFixture builds the conformance package's raw-wire fixture (it follows every
// rule, or breaks one when given a mode) and returns the binary.
func buildRawFixture(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "rawfixture")
	out, err := exec.Command("go", "build", "-o", bin, "../../conformance/testdata/rawfixture").CombinedOutput()
	if err != nil {
		t.Fatalf("building the raw fixture: %v\n%s", err, out)
	}
	return bin
}

// writeRawExtension writes root/lang/name/extension.toml starting bin in mode.
func writeRawExtension(t *testing.T, root, lang, name, bin, mode string) string {
	t.Helper()
	dir := filepath.Join(root, lang, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := ""
	if mode != "" {
		args = fmt.Sprintf("args = [%q]\n", mode)
	}
	manifest := fmt.Sprintf("name = %q\nversion = \"0.1.0\"\napi_version = \"0.4\"\n\n[entrypoint]\ncommand = %q\n%s\n%s", name, bin, args, rawContributes)
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rawContributes is what the raw fixture serves (docs/design/fixture.md's manifest).
const rawContributes = `[capabilities]
secrets = ["fixture.token"]

[contributes]
tools = ["echo", "fail_with", "slow", "progress_n", "print_stdout", "crash", "callback_n",
         "big_result", "publish", "register_dynamic", "unregister_dynamic", "ask", "secret",
         "present", "spawn_child", "kv_commit", "kv_get", "arm_stuck_shutdown", "typed",
         "notify", "contribute", "policy", "kv_list", "agent_op", "suite_args",
         "settings_in_force", "idempotency_key_seen", "sandbox_probe"]
commands = ["fixture_cmd", "slow_cmd"]
hooks = ["before_prompt", "before_tool_call", "after_tool_call"]
ui = ["status"]
context = true
tool_renderers = ["echo"]
`

func TestCertifyJSONAndExitCodes(t *testing.T) {
	bin := buildRawFixture(t)
	root := t.TempDir()
	good := writeRawExtension(t, root, "go", "conformance-fixture", bin, "")
	code, out, errOut := octetHost(t, "", "certify", "--json", "--check", "handshake.manifest_echo", "--check", "echo.sequential", good)
	if code != exitOK {
		t.Fatalf("certify good fixture: exit %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Extension string `json:"extension"`
		Language  string `json:"language"`
		Checks    []struct {
			Name, Status, Detail string
		} `json:"checks"`
		Passed int `json:"passed"`
		Failed int `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output is not one object: %v\n%s", err, out)
	}
	if rep.Extension != "conformance-fixture" || rep.Language != "go" || rep.Passed != 2 || rep.Failed != 0 || len(rep.Checks) != 2 {
		t.Fatalf("unexpected report: %+v", rep)
	}

	broken := writeRawExtension(t, t.TempDir(), "go", "conformance-fixture", bin, "unknown-method-wrong-code")
	code, out, _ = octetHost(t, "", "certify", "--check", "rpc.unknown_method", broken)
	if code != exitFailed {
		t.Fatalf("certify broken fixture: exit %d, want %d\n%s", code, exitFailed, out)
	}
	for _, want := range []string{"FAIL  rpc.unknown_method", "expected: error -32601", "frames (last process", "→ {"} {
		if !strings.Contains(out, want) {
			t.Errorf("failure report lacks %q:\n%s", want, out)
		}
	}

	code, out, _ = octetHost(t, "", "certify", "--json", "--check", "rpc.unknown_method", good, broken)
	var several []json.RawMessage
	if code != exitFailed || json.Unmarshal([]byte(out), &several) != nil || len(several) != 2 {
		t.Fatalf("two directories: exit %d, want an array of two reports:\n%s", code, out)
	}
	if code, _, _ := octetHost(t, "", "certify", "--check", "no.such.check", good); code != exitStartup {
		t.Errorf("unknown check: exit %d, want %d", code, exitStartup)
	}
	// A former check name is accepted with a deprecation note (then the missing directory
	// stops the run before any extension starts).
	if code, _, errOut := octetHost(t, "", "certify", "--check", "catalog.epochs"); code != exitStartup ||
		!strings.Contains(errOut, `deprecated: check "catalog.epochs" is now "catalog.revisions"`) || strings.Contains(errOut, "unknown check") {
		t.Errorf("former check name: exit %d\n%s", code, errOut)
	}
}

func TestCertifyMatrix(t *testing.T) {
	bin := buildRawFixture(t)
	root := t.TempDir()
	writeRawExtension(t, root, "go", "conformance-fixture", bin, "")
	writeRawExtension(t, root, "go", "plain", bin, "")
	code, out, _ := octetHost(t, "", "certify", "--matrix", "--check", "handshake.manifest_echo", "--check", "echo.sequential", root)
	if code != exitOK {
		t.Fatalf("matrix: exit %d\n%s", code, out)
	}
	for _, want := range []string{"checks × language fixtures", "echo.sequential", "conditional  pass  missing  missing", "plain", "RESULT: pass"} {
		if !strings.Contains(out, want) {
			t.Errorf("matrix output lacks %q:\n%s", want, out)
		}
	}
	// A language with examples but no fixture fails: its fixture checks would not run.
	writeRawExtension(t, root, "python", "plain", bin, "")
	code, out, _ = octetHost(t, "", "certify", "--matrix", "--check", "handshake.manifest_echo", root)
	if code != exitFailed || !strings.Contains(out, "python has examples but no") {
		t.Fatalf("matrix without the python fixture: exit %d\n%s", code, out)
	}
}
