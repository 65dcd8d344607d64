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
	linked := false
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/santhosh-tekuri/") || strings.HasPrefix(d, "golang.org/x/text") {
			t.Errorf("an extension binary links %s", d)
		}
		linked = linked || d == "github.com/octet-kit/octet/sdk-go/internal/jsonschema"
	}
	if !linked {
		t.Errorf("the examples do not link the SDK's validator: %d packages listed", len(deps))
	}
}
