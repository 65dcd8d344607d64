package gen_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/codegen/internal/gen"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the fixture schema")

// TestFixtureGoldens runs every emitter on a small schema with each supported construct and
// compares with testdata/golden. A missing or different golden fails; goldens are written
// only with -update, never silently.
func TestFixtureGoldens(t *testing.T) {
	if err := ir.MetaValidate(os.DirFS("testdata/fixture")); err != nil {
		t.Fatal(err)
	}
	m, err := ir.Load(os.DirFS("testdata/fixture"))
	if err != nil {
		t.Fatal(err)
	}
	gen.Examples = nil
	out, err := gen.Generate(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range out.Paths() {
		golden := filepath.Join("testdata", "golden", filepath.FromSlash(p))
		if *update {
			if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, out[p], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: golden missing (review the output, then go test ./codegen/internal/gen -run TestFixtureGoldens -update)", golden)
			continue
		}
		if !bytes.Equal(want, out[p]) {
			t.Errorf("%s differs from the emitter's output (go test -run TestFixtureGoldens -update after review)", golden)
		}
	}
}
