package bundle_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/octet-kit/octet/host/bundle"
)

func TestInstallListUpdateRemove(t *testing.T) {
	m := newManager(t)
	marker := filepath.Join(t.TempDir(), "ran")
	a1 := archive(t, good("hello", "1.0.0", marker), false)
	rec, err := m.Install(a1)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.EvalSymlinks(a1)
	want := &bundle.Record{Schema: 1, ID: "hello", Version: "1.0.0", APIVersion: "0.4", RequiresOctet: "=0.8.0",
		Source: src, SHA256: sha(t, a1), OctetVersion: "0.8.0", InstalledAt: "2026-12-01T07:30:00Z"}
	if !reflect.DeepEqual(rec, want) {
		t.Fatalf("record\n got %+v\nwant %+v", rec, want)
	}
	dir := filepath.Join(m.Root, "hello")
	if back, err := bundle.ReadRecord(dir); err != nil || !reflect.DeepEqual(back, want) {
		t.Fatalf("install.json read back: %+v %v", back, err)
	}
	for p, mode := range map[string]os.FileMode{"": 0o755 | os.ModeDir, "run": 0o755, "extension.toml": 0o644, "install.json": 0o644, "docs": 0o755 | os.ModeDir, "docs/v1.0.0.md": 0o644} {
		fi, err := os.Lstat(filepath.Join(dir, p))
		if err != nil || fi.Mode() != mode {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode(), err, mode)
		}
	}
	if got := rootNames(t, m.Root); !reflect.DeepEqual(got, []string{".lock", "hello"}) {
		t.Errorf("root holds %v, want only the lock and the bundle", got)
	}
	res := discover(m)
	if e := res.Lookup("hello"); e == nil || !e.Valid() || e.Manifest.Version != "1.0.0" || len(res.Diagnostics) != 0 {
		t.Fatalf("discovery: %+v %v", e, res.Diagnostics)
	}
	list, err := m.List()
	if err != nil || len(list) != 1 || list[0].Name != "hello" || list[0].Record == nil || list[0].Record.Version != "1.0.0" {
		t.Fatalf("list: %+v %v", list, err)
	}

	rec, err = m.Update(archive(t, good("hello", "2.0.0", marker), false))
	if err != nil || rec.Version != "2.0.0" {
		t.Fatalf("update: %+v %v", rec, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "docs", "v1.0.0.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a file of the old version survived the update: %v", err)
	}
	if e := discover(m).Lookup("hello"); e == nil || !e.Valid() || e.Manifest.Version != "2.0.0" {
		t.Fatalf("discovery after update: %+v", e)
	}
	if got := rootNames(t, m.Root); !reflect.DeepEqual(got, []string{".lock", "hello"}) {
		t.Errorf("root after update holds %v", got)
	}

	// An unpackaged extension beside it is neither listed nor touched by remove.
	local := filepath.Join(m.Root, "local")
	os.MkdirAll(local, 0o755)
	os.WriteFile(filepath.Join(local, "extension.toml"), []byte(toml("local", "1.0.0", "0.4", "", "run")), 0o644)
	if list, _ := m.List(); len(list) != 1 {
		t.Errorf("unpackaged extension listed as a bundle: %+v", list)
	}
	if rec, err := m.Remove("hello"); err != nil || rec.Version != "2.0.0" {
		t.Fatalf("remove: %+v %v", rec, err)
	}
	if got := rootNames(t, m.Root); !reflect.DeepEqual(got, []string{".lock", "local"}) {
		t.Errorf("root after remove holds %v", got)
	}
	if list, err := m.List(); err != nil || len(list) != 0 {
		t.Errorf("list after remove: %+v %v", list, err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("installation ran the extension's entrypoint")
	}
}

func TestInstallPlainTarAndMissingRoot(t *testing.T) {
	m := newManager(t)
	if list, err := m.List(); err != nil || len(list) != 0 {
		t.Fatalf("missing root: %+v %v", list, err)
	}
	// No directory entries at all: directories are implied by the files' paths.
	entries := good("plain", "0.1.0", filepath.Join(t.TempDir(), "ran"))[1:]
	if _, err := m.Install(archive(t, entries, true)); err != nil {
		t.Fatal(err)
	}
	if e := discover(m).Lookup("plain"); e == nil || !e.Valid() {
		t.Fatalf("plain tar bundle not discovered: %+v", e)
	}
}

func TestAPI02Accepted(t *testing.T) {
	m := newManager(t)
	entries := []entry{file("old/extension.toml", toml("old", "1.0.0", "0.2", "=0.8.0", "python3"))}
	if rec, err := m.Install(archive(t, entries, false)); err != nil || rec.APIVersion != "0.2" {
		t.Fatalf("API 0.2 bundle: %+v %v", rec, err)
	}
}

func TestInstallRefusesExisting(t *testing.T) {
	m := newManager(t)
	a := archive(t, good("hello", "1.0.0", filepath.Join(t.TempDir(), "ran")), false)
	if _, err := m.Install(a); err != nil {
		t.Fatal(err)
	}
	_, err := m.Install(a)
	if !errors.Is(err, &bundle.Error{Rule: bundle.RuleExists}) || !contains(err, "hello", "bundle update") {
		t.Fatalf("second install: %v", err)
	}
	os.MkdirAll(filepath.Join(m.Root, "mine"), 0o755)
	if _, err := m.Install(archive(t, good("mine", "1.0.0", filepath.Join(t.TempDir(), "ran")), false)); !errors.Is(err, &bundle.Error{Rule: bundle.RuleExists}) {
		t.Fatalf("install over an unmanaged directory: %v", err)
	}
}

func TestStagingLeftoversIgnoredAndCleaned(t *testing.T) {
	m := newManager(t)
	marker := filepath.Join(t.TempDir(), "ran")
	// A crash mid-extraction, and a crash of an update between moving "kept" aside and
	// publishing its candidate.
	if _, err := m.Install(archive(t, good("kept", "1.0.0", marker), false)); err != nil {
		t.Fatal(err)
	}
	staging := filepath.Join(m.Root, ".staging-123", "half")
	os.MkdirAll(staging, 0o700)
	os.WriteFile(filepath.Join(staging, "extension.toml"), []byte(toml("half", "1.0.0", "0.4", "=0.8.0", "run")), 0o644)
	aside := filepath.Join(m.Root, ".previous-456")
	os.MkdirAll(aside, 0o700)
	if err := os.Rename(filepath.Join(m.Root, "kept"), filepath.Join(aside, "kept")); err != nil {
		t.Fatal(err)
	}
	// Discovery recovers first: the half-unpacked candidate is never seen, and the bundle
	// the crash had moved aside is back under its name (it never went missing).
	res := discover(m)
	if len(res.Entries) != 1 || res.Entries[0].Name != "kept" || len(res.Diagnostics) != 0 {
		t.Fatalf("after recovery discovery found %+v %v, want kept only", res.Entries, res.Diagnostics)
	}
	if _, err := m.Install(archive(t, good("next", "1.0.0", marker), false)); err != nil {
		t.Fatal(err)
	}
	if got := rootNames(t, m.Root); !reflect.DeepEqual(got, []string{".lock", "kept", "next"}) {
		t.Errorf("after the next install the root holds %v, want the restored bundle and the new one", got)
	}
	if rec, err := bundle.ReadRecord(filepath.Join(m.Root, "kept")); err != nil || rec.ID != "kept" {
		t.Errorf("restored bundle: %+v %v", rec, err)
	}
}

// Operations on one root are serialised: of two concurrent installs of one name, exactly
// one publishes and the other is refused as existing, never a torn directory.
func TestConcurrentInstallsSerialised(t *testing.T) {
	m := newManager(t)
	a := archive(t, good("hello", "1.0.0", filepath.Join(t.TempDir(), "ran")), false)
	errs := make(chan error, 4)
	for range 4 {
		go func() { _, err := m.Install(a); errs <- err }()
	}
	var ok, exists int
	for range 4 {
		switch err := <-errs; {
		case err == nil:
			ok++
		case errors.Is(err, &bundle.Error{Rule: bundle.RuleExists}):
			exists++
		default:
			t.Errorf("unexpected: %v", err)
		}
	}
	if ok != 1 || exists != 3 {
		t.Fatalf("%d installed, %d refused as existing", ok, exists)
	}
	if got := rootNames(t, m.Root); !reflect.DeepEqual(got, []string{".lock", "hello"}) {
		t.Fatalf("root holds %v", got)
	}
}
