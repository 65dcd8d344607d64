package gen

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// TestEveryTargetWritesEveryArtifact: each artifact of each target writes files of its own
// (an artifact method that is a stub writes nothing and fails here), no two artifacts write
// the same path, and together they are exactly what Generate returns.
func TestEveryTargetWritesEveryArtifact(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "schema")
	m, err := ir.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	Examples = os.DirFS(filepath.Join(dir, "vectors"))
	defer func() { Examples = nil }()
	all, err := Generate(m)
	if err != nil {
		t.Fatal(err)
	}
	type artifact struct {
		name string
		run  func(*ir.Model, Output) error
	}
	var arts []artifact
	for _, ct := range codeTargets {
		name := fmt.Sprintf("%T", ct)
		arts = append(arts, artifact{name + ".Models", ct.Models}, artifact{name + ".Features", ct.Features}, artifact{name + ".Dispatch", ct.Dispatch})
	}
	for _, dt := range docTargets {
		name := fmt.Sprintf("%T", dt)
		arts = append(arts, artifact{name + ".Models", dt.Models}, artifact{name + ".Features", dt.Features})
	}
	if len(arts) != 3*3+2 {
		t.Fatalf("%d artifacts; want three per SDK target (Go, Python, TypeScript) and two for Markdown", len(arts))
	}
	owner := map[string]string{}
	for _, a := range arts {
		out := Output{}
		if err := a.run(m, out); err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		if len(out) == 0 {
			t.Errorf("%s wrote nothing", a.name)
		}
		for p, b := range out {
			if prev, dup := owner[p]; dup {
				t.Errorf("%s and %s both write %s", prev, a.name, p)
			}
			owner[p] = a.name
			if string(all[p]) != string(b) {
				t.Errorf("%s: %s differs from what Generate returns", a.name, p)
			}
		}
	}
	if len(owner) != len(all) {
		t.Errorf("the artifacts write %d files, Generate %d", len(owner), len(all))
	}
}
