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
	cmd := exec.Command(goBin, "list", "-deps", "./examples/go/hello-world", "./examples/go/conformance-fixture")
	cmd.Dir = ".." // the kit's main module, which replaces the SDK with this directory
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	validator, deriver := false, false
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/santhosh-tekuri/") || strings.HasPrefix(d, "golang.org/x/text") ||
			strings.HasPrefix(d, "github.com/invopop/") || d == "net" {
			t.Errorf("an extension binary links %s", d)
		}
		validator = validator || d == "github.com/octet-kit/octet/sdk-go/internal/jsonschema"
		deriver = deriver || d == "github.com/octet-kit/octet/sdk-go/internal/reflectschema"
	}
	if !validator || !deriver {
		t.Errorf("the examples do not link the SDK's validator (%v) and schema deriver (%v): %d packages listed", validator, deriver, len(deps))
	}
}
