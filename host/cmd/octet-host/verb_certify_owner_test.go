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

// ownerChecks are the session owner's checks and the atomic catalog replacement.
var ownerChecks = []string{"owner.exclusive", "owner.hook_fail_closed", "owner.catalog_enforced", "catalog.atomic_replace"}

// writeOwnerRawExtension is writeRawExtension for a raw fixture that owns the session (echo
// private) and serves replace_dynamic.
func writeOwnerRawExtension(t *testing.T, root, bin, mode string) string {
	t.Helper()
	dir := filepath.Join(root, "go", "conformance-fixture")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := ""
	if mode != "" {
		args = fmt.Sprintf("args = [%q]\n", mode)
	}
	contributes := strings.Replace(rawContributes, `"sandbox_probe"]`, `"sandbox_probe", "replace_dynamic", "ignore_cancel"]`, 1)
	manifest := fmt.Sprintf("name = \"conformance-fixture\"\nversion = \"0.1.0\"\napi_version = \"0.4\"\n\n[entrypoint]\ncommand = %q\n%s\n%s\n[session]\nowner = true\nprivate_tools = [\"echo\"]\n",
		bin, args, contributes)
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// certify runs the owner checks green on an owner and red on the raw fixture's modes that
// break them; the Go session-owner example passes the owner.* checks through the CLI too.
func TestCertifyOwnerChecks(t *testing.T) {
	bin := buildRawFixture(t)
	args := func(dir string, checks ...string) []string {
		out := []string{"certify", "--json"}
		for _, c := range checks {
			out = append(out, "--check", c)
		}
		return append(out, dir)
	}
	code, out, errOut := octetHost(t, "", args(writeOwnerRawExtension(t, t.TempDir(), bin, ""), ownerChecks...)...)
	var rep struct {
		Checks []struct{ Name, Status string } `json:"checks"`
		Passed int                             `json:"passed"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil || rep.Passed != len(ownerChecks) {
		t.Fatalf("certify the owning raw fixture: exit %d %+v\n%s%s", code, rep, out, errOut)
	}
	for check, mode := range map[string]string{
		"owner.hook_fail_closed": "owner-hook-error",
		"owner.catalog_enforced": "owner-private-crash",
		"catalog.atomic_replace": "replace-as-two",
	} {
		code, out, _ := octetHost(t, "", args(writeOwnerRawExtension(t, t.TempDir(), bin, mode), check)...)
		if code != exitFailed || !strings.Contains(out, `"fail"`) {
			t.Errorf("%s against mode %s: exit %d, want %d\n%s", check, mode, code, exitFailed, out)
		}
	}
	example, _ := filepath.Abs("../../../examples/go/session-owner")
	build := exec.Command("go", "build", "-o", filepath.Join(example, ".bin", "extension"), ".")
	build.Dir = example
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build the session-owner example: %v\n%s", err, b)
	}
	code, out, errOut = octetHost(t, "", args(example, ownerChecks[:3]...)...)
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil || rep.Passed != 3 {
		t.Fatalf("certify examples/go/session-owner: exit %d\n%s%s", code, out, errOut)
	}
}
