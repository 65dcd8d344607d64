package bundle_test

import (
	"archive/tar"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

func installed(t *testing.T, m *bundle.Manager, name, version string) {
	t.Helper()
	if _, err := m.Install(archive(t, good(name, version, filepath.Join(t.TempDir(), "ran")), false)); err != nil {
		t.Fatal(err)
	}
}

// stillV1 asserts the prior bundle is intact: valid record, version 1 discovered, its files.
func stillV1(t *testing.T, m *bundle.Manager) {
	t.Helper()
	rec, err := bundle.ReadRecord(filepath.Join(m.Root, "hello"))
	if err != nil || rec.Version != "1.0.0" {
		t.Fatalf("prior bundle's record: %+v %v", rec, err)
	}
	if e := discover(m).Lookup("hello"); e == nil || !e.Valid() || e.Manifest.Version != "1.0.0" {
		t.Fatalf("prior bundle not discovered intact: %+v", e)
	}
	if _, err := os.Stat(filepath.Join(m.Root, "hello", "docs", "v1.0.0.md")); err != nil {
		t.Fatalf("prior bundle lost a file: %v", err)
	}
	if got := rootNames(t, m.Root); !reflect.DeepEqual(got, []string{".lock", "hello"}) {
		t.Fatalf("root holds %v after the failed update", got)
	}
}

func TestUpdateRollsBackWhenPublicationFails(t *testing.T) {
	m := newManager(t)
	installed(t, m, "hello", "1.0.0")
	var calls []string
	bundle.SetRename(m, func(oldpath, newpath string) error {
		calls = append(calls, filepath.Base(filepath.Dir(oldpath))+"/"+filepath.Base(oldpath))
		if strings.Contains(oldpath, string(filepath.Separator)+".staging-") {
			return errors.New("simulated: disk on fire")
		}
		return os.Rename(oldpath, newpath)
	})
	_, err := m.Update(archive(t, good("hello", "2.0.0", filepath.Join(t.TempDir(), "ran")), false))
	if !errors.Is(err, &bundle.Error{Rule: bundle.RulePublish}) || !contains(err, "disk on fire", "current bundle is unchanged") {
		t.Fatalf("update: %v", err)
	}
	if len(calls) != 3 { // move aside, publish (fails), move back
		t.Fatalf("renames %v", calls)
	}
	stillV1(t, m)
}

func TestUpdateLeavesBundleWhenMoveAsideFails(t *testing.T) {
	m := newManager(t)
	installed(t, m, "hello", "1.0.0")
	bundle.SetRename(m, func(oldpath, newpath string) error { return errors.New("simulated: read-only") })
	_, err := m.Update(archive(t, good("hello", "2.0.0", filepath.Join(t.TempDir(), "ran")), false))
	if !errors.Is(err, &bundle.Error{Rule: bundle.RulePublish}) || !contains(err, "nothing changed") {
		t.Fatalf("update: %v", err)
	}
	stillV1(t, m)
}

// When moving the old bundle back fails too, it stays in its .previous- directory and the
// next operation restores it.
func TestUpdateDoubleFailureRecoveredByNextOperation(t *testing.T) {
	m := newManager(t)
	installed(t, m, "hello", "1.0.0")
	n := 0
	bundle.SetRename(m, func(oldpath, newpath string) error {
		if n++; n == 1 {
			return os.Rename(oldpath, newpath)
		}
		return errors.New("simulated")
	})
	_, err := m.Update(archive(t, good("hello", "2.0.0", filepath.Join(t.TempDir(), "ran")), false))
	if !errors.Is(err, &bundle.Error{Rule: bundle.RulePublish}) || !contains(err, "restores it") {
		t.Fatalf("update: %v", err)
	}
	bundle.SetRename(m, nil)
	// Listing recovers first, so the moved-aside bundle is listed, never missing.
	if list, err := m.List(); err != nil || len(list) != 1 || list[0].Record.Version != "1.0.0" {
		t.Fatalf("list after the double failure: %+v %v", list, err)
	}
	stillV1(t, m)
}

func TestUpdateRequiresManagedBundle(t *testing.T) {
	m := newManager(t)
	a := archive(t, good("hello", "2.0.0", filepath.Join(t.TempDir(), "ran")), false)
	if _, err := m.Update(a); !errors.Is(err, &bundle.Error{Rule: bundle.RuleNotInstalled}) || !contains(err, "hello", "bundle install") {
		t.Fatalf("update of nothing: %v", err)
	}
	dir := filepath.Join(m.Root, "hello")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(toml("hello", "1.0.0", "0.4", "", "run")), 0o644)
	if _, err := m.Update(a); !errors.Is(err, &bundle.Error{Rule: bundle.RuleUnmanaged}) || !contains(err, "not a managed bundle") {
		t.Fatalf("update of an unpackaged copy: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "install.json"), []byte(`{"schema":1,"colour":"red"}`), 0o644)
	if _, err := m.Update(a); !errors.Is(err, &bundle.Error{Rule: bundle.RuleUnmanaged}) || !contains(err, `"colour" is not known`) {
		t.Fatalf("update over a bad install.json: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "extension.toml")); !strings.Contains(string(data), `"1.0.0"`) {
		t.Fatalf("refused update changed the directory")
	}
	// A candidate refused by validation never touches the installed bundle.
	os.RemoveAll(dir)
	installed(t, m, "hello", "1.0.0")
	bad := archive(t, append(good("hello", "2.0.0", filepath.Join(t.TempDir(), "ran")), entry{name: "hello/l", typ: tar.TypeSymlink, link: "x"}), false)
	if _, err := m.Update(bad); !errors.Is(err, &bundle.Error{Rule: bundle.RuleLink}) {
		t.Fatalf("bad candidate: %v", err)
	}
	stillV1(t, m)
}
