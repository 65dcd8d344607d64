package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

func TestRemoveOnlyManagedBundles(t *testing.T) {
	m := newManager(t)
	installed(t, m, "hello", "1.0.0")
	for _, name := range []string{"", ".", "..", "../hello", "hello/..", ".lock", `a\b`} {
		if _, err := m.Remove(name); !errors.Is(err, &bundle.Error{Rule: bundle.RuleName}) {
			t.Errorf("remove %q: %v", name, err)
		}
	}
	if _, err := m.Remove("absent"); !errors.Is(err, &bundle.Error{Rule: bundle.RuleNotInstalled}) || !contains(err, "absent") {
		t.Errorf("remove absent: %v", err)
	}
	mine := filepath.Join(m.Root, "mine")
	os.MkdirAll(mine, 0o755)
	os.WriteFile(filepath.Join(mine, "extension.toml"), []byte(toml("mine", "1.0.0", "0.4", "", "run")), 0o644)
	if _, err := m.Remove("mine"); !errors.Is(err, &bundle.Error{Rule: bundle.RuleUnmanaged}) || !contains(err, "mine", "not a managed bundle") {
		t.Errorf("remove unmanaged: %v", err)
	}
	// A record naming another bundle does not make the directory this one.
	rec, _ := bundle.ReadRecord(filepath.Join(m.Root, "hello"))
	data, _ := os.ReadFile(filepath.Join(m.Root, "hello", "install.json"))
	os.WriteFile(filepath.Join(mine, "install.json"), data, 0o644)
	if _, err := m.Remove("mine"); !errors.Is(err, &bundle.Error{Rule: bundle.RuleUnmanaged}) || !contains(err, `records id "hello"`) {
		t.Errorf("remove with a foreign record: %v", err)
	}
	if _, err := os.Stat(filepath.Join(mine, "extension.toml")); err != nil {
		t.Fatalf("refused remove deleted files: %v", err)
	}
	// A symlink to a managed bundle is not one; neither it nor its target is removed.
	if err := os.Symlink(filepath.Join(m.Root, "hello"), filepath.Join(m.Root, "alias")); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Remove("alias"); !errors.Is(err, &bundle.Error{Rule: bundle.RuleUnmanaged}) || !contains(err, "symbolic link") {
		t.Errorf("remove symlink: %v", err)
	}
	// Links inside a bundle are deleted, never followed.
	outside := filepath.Join(t.TempDir(), "keep")
	os.WriteFile(outside, []byte("data"), 0o644)
	os.Symlink(filepath.Dir(outside), filepath.Join(m.Root, "hello", "data-link"))
	if got, err := m.Remove("hello"); err != nil || got.ID != rec.ID {
		t.Fatalf("remove: %+v %v", got, err)
	}
	if _, err := os.Stat(outside); err != nil {
		t.Fatalf("remove followed a symlink out of the bundle: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(m.Root, "hello")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("bundle still there: %v", err)
	}
}
