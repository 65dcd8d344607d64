package sandbox_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/octet-kit/octet/host/sandbox"
)

// TestBuildCreatesOwnWriteDirs: a declared write directory inside the extension's own
// directory is created before the start (the extension may not create it itself, and
// Landlock grants only what exists); one outside it is never created.
func TestBuildCreatesOwnWriteDirs(t *testing.T) {
	dir, elsewhere := t.TempDir(), filepath.Join(t.TempDir(), "not-mine")
	p, err := sandbox.Build(sandbox.Request{Name: "x", Dir: dir, Filesystem: "none", Write: []string{".bin/cache", elsewhere}})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, ".bin", "cache")); err != nil || !fi.IsDir() {
		t.Fatalf(".bin/cache was not created: %v", err)
	}
	if _, err := os.Lstat(elsewhere); !os.IsNotExist(err) {
		t.Fatalf("a write path outside the extension's directory was created: %v", err)
	}
	if !slices.Contains(p.Write, filepath.Join(dir, ".bin", "cache")) {
		t.Fatalf("policy writes %v", p.Write)
	}
}

// TestBuildCreatesNothingThroughALink: a declared write path whose parent inside the
// extension's directory is a link to elsewhere is refused, and nothing is created there.
func TestBuildCreatesNothingThroughALink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	_, err := sandbox.Build(sandbox.Request{Name: "x", Dir: dir, Filesystem: "none", Write: []string{"out/cache"}})
	if err == nil {
		t.Fatal("a write path through a link to elsewhere was accepted")
	}
	if _, statErr := os.Lstat(filepath.Join(elsewhere, "cache")); !os.IsNotExist(statErr) {
		t.Fatalf("created outside the extension's directory: %v", statErr)
	}
}
