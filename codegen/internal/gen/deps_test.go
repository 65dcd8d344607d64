package gen

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGeneratorLinksNoGeneratedCode: no command or package of codegen/ (the generator, the
// vector synthesiser, the breaking-change checker, the fuzz harness) links the code it
// generates (the Go SDK's protocol packages) or anything else of the SDK module. Generated
// code is judged by programs of the SDK that owns it (the fuzz harness runs
// sdk-go/internal/fuzzdiffdriver as it runs the Python and TypeScript drivers), so a broken
// generation can always be regenerated. The harness importing sdk-go/protocol, as it did,
// fails here.
func TestGeneratorLinksNoGeneratedCode(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", "./codegen/...")
	cmd.Dir = "../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./codegen/...: %v", err)
	}
	deps := strings.Fields(string(out))
	gen := false
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/octet-kit/octet/sdk-go") {
			t.Errorf("codegen links %s", d)
		}
		gen = gen || d == "github.com/octet-kit/octet/codegen/internal/gen"
	}
	if !gen {
		t.Fatalf("go list listed %d packages and not the generator itself", len(deps))
	}
}
