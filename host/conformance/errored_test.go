package conformance_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// An extension that crashes before it answers anything passes nothing: a check that would
// pass on a dead process ("exited without answering" also looks like a version refusal)
// is an error, and certification fails.
func TestCrashOnImportPassesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "crashy")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := "name = \"crashy\"\nversion = \"0.1.0\"\napi_version = \"0.4\"\n\n[entrypoint]\ncommand = \"run\"\n\n[contributes]\ntools = [\"hello\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run"), []byte("#!/bin/sh\necho 'ImportError: no module named octet_extension' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ext, err := conformance.LoadExtension(dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := conformance.Certify(context.Background(), ext, testOptions)
	if rep.Passed() != 0 || rep.Errored() == 0 || rep.OK() {
		t.Fatalf("passed %d, errored %d, failed %d, ok %v: a crashing extension must pass nothing and fail", rep.Passed(), rep.Errored(), rep.Failed(), rep.OK())
	}
	res, ok := rep.Result("version.refuse_0_3")
	if !ok || res.Status != conformance.Error {
		t.Fatalf("version.refuse_0_3 = %+v, want error", res)
	}
	if js := conformance.ToJSON(rep); js.Errored != rep.Errored() || js.Failed != rep.Failed() {
		t.Fatalf("JSON counts %+v", js)
	}
}
