package octet

import (
	"os/exec"
	"strings"
	"testing"
)

// TestExtensionBinaryDoesNotLinkTheOracle: santhosh-tekuri/jsonschema compiles
// the 2020-12 meta-schema in its package init (about 4 ms, 1.7 MB and 21k
// allocations at every start, issue 17), so it is a test-only oracle here: no
// extension binary may link it, nor golang.org/x/text, which only its messages
// needed. Checked on the Go hello-world example and the conformance fixture,
// which between them use every part of the SDK the examples use.
//
// Nor github.com/invopop/jsonschema, the schema deriver before
// internal/reflectschema (now the differential oracle of its tests), nor net:
// net makes the Go linker link libc and the dynamic loader (1.4 MiB of an idle
// hello-world's RSS, issue 17), and invopop was what imported it.
func TestExtensionBinaryDoesNotLinkTheOracle(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	list := func(pkgs ...string) []string {
		cmd := exec.Command(goBin, append([]string{"list", "-deps"}, pkgs...)...)
		cmd.Dir = ".." // the kit's main module, which replaces the SDK with this directory
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -deps: %v", err)
		}
		return strings.Fields(string(out))
	}
	// The conformance fixture's sandbox probe dials on purpose, so net is judged on
	// hello-world alone: what the SDK itself pulls in.
	for _, d := range list("./examples/go/hello-world") {
		if d == "net" {
			t.Errorf("an extension binary links %s", d)
		}
	}
	deps := list("./examples/go/hello-world", "./examples/go/conformance-fixture")
	validator, deriver := false, false
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/santhosh-tekuri/") || strings.HasPrefix(d, "golang.org/x/text") ||
			strings.HasPrefix(d, "github.com/invopop/") {
			t.Errorf("an extension binary links %s", d)
		}
		validator = validator || d == "github.com/octet-kit/octet/sdk-go/internal/jsonschema"
		deriver = deriver || d == "github.com/octet-kit/octet/sdk-go/internal/reflectschema"
	}
	if !validator || !deriver {
		t.Errorf("the examples do not link the SDK's validator (%v) and schema deriver (%v): %d packages listed", validator, deriver, len(deps))
	}
}

// TestExtensionBinaryLinksOnlyReceivedValidators: an extension validates what it receives
// through protocol.ValidateFromHost, so its binary links neither the full dispatch over
// every schema type nor a validator only a host needs (about 210 KB of the hello-world's
// mapped, resident text and tables, issue 17), but does link what it receives.
func TestExtensionBinaryLinksOnlyReceivedValidators(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the hello-world example")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	bin := t.TempDir() + "/hello-world"
	build := exec.Command(goBin, "build", "-o", bin, "./examples/go/hello-world")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(goBin, "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	syms := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) >= 3 {
			syms[f[len(f)-1]] = true
		}
	}
	const p = "github.com/octet-kit/octet/sdk-go/protocol."
	for _, absent := range []string{"dispatch", "Validate", "validateInitializeResult", "validateHookRunResult", "validateArtifactPublishParams"} {
		if syms[p+absent] {
			t.Errorf("the hello-world binary links protocol.%s", absent)
		}
	}
	for _, present := range []string{"dispatchFromHost", "validateInitializeParams", "validateToolCallParams"} {
		if !syms[p+present] {
			t.Errorf("the hello-world binary does not link protocol.%s (the check above proves nothing)", present)
		}
	}
}
