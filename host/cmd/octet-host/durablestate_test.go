package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/durable"
	"github.com/octet-kit/octet/host/store"
)

// TestDurableStateDirectory: OCTET_EXTENSION_STATE names a directory that outlives the
// host run (a file written in one `call` is read by the next), belongs to the identity (a
// same-named copy elsewhere does not see it), and a kv_version stored newer than the
// manifest declares refuses the start as state_downgrade before the process is spawned,
// until the manifest declares it again.
func TestDurableStateDirectory(t *testing.T) {
	e := newEnv(t)
	a, b := kvTwin(t, t.TempDir()), kvTwin(t, t.TempDir())
	state := filepath.Join(t.TempDir(), "state")
	call := func(want int, dir string, args ...string) (string, string) {
		t.Helper()
		code, out, errOut := octetHost(t, "", append([]string{"call", "--state", state, "--config", e.config, dir}, args...)...)
		if code != want {
			t.Fatalf("call %s %v: exit %d, want %d\n%s\n%s", dir, args, code, want, out, errOut)
		}
		return strings.TrimSpace(out), errOut
	}
	call(exitOK, a, "state_write", `{"text":"kept"}`)
	if out, _ := call(exitOK, a, "state_read"); !strings.Contains(out, `"file: kept"`) {
		t.Fatalf("the next run lost the file: %s", out)
	}
	if out, _ := call(exitOK, b, "state_read"); !strings.Contains(out, `"no file"`) {
		t.Fatalf("a same-named copy sees A's state: %s", out)
	}
	dirs, _ := filepath.Glob(filepath.Join(state, "extensions", "kvtwin-*"))
	if len(dirs) != 2 {
		t.Fatalf("state directories %v, want one per identity", dirs)
	}

	// Downgrade: the data is at version 2 (as the SDK leaves it after migrating), the
	// manifest then declares 1.
	manifest := filepath.Join(a, "extension.toml")
	orig, _ := os.ReadFile(manifest)
	os.WriteFile(manifest, append(append([]byte{}, orig...), "\n[state]\nkv_version = 2\n"...), 0o644)
	call(exitOK, a, "set_kv_version", `{"version":2}`)
	os.WriteFile(manifest, append(append([]byte{}, orig...), "\n[state]\nkv_version = 1\n"...), 0o644)
	_, errOut := call(exitStartup, a, "recall")
	if !strings.Contains(errOut, "state_downgrade") || !strings.Contains(errOut, "kv_version 2, newer than the 1") {
		t.Fatalf("downgrade not refused as state_downgrade:\n%s", errOut)
	}
	if strings.Contains(errOut, "kvtwin[1]") {
		t.Fatalf("the process was spawned before the refusal:\n%s", errOut)
	}
	// The same-named copy is not affected: the version is A's.
	call(exitOK, b, "recall")
	os.WriteFile(manifest, append(append([]byte{}, orig...), "\n[state]\nkv_version = 2\n"...), 0o644)
	call(exitOK, a, "recall")
}

// TestBundleRemoveDeletesDurableState: an installed bundle's state directory (created by
// its first start) and its KV entries survive an update and go with `bundle remove`; a
// same-named extension elsewhere keeps its own.
func TestBundleRemoveDeletesDurableState(t *testing.T) {
	e := newEnv(t)
	v1 := pythonHelloBundle(t, "0.1.0", filepath.Join(e.base, "ran"))
	if code, out, errOut := octetHost(t, "", "bundle", "install", "--root", e.global, v1); code != 0 {
		t.Fatalf("install: %d\n%s%s", code, out, errOut)
	}
	bundleDir := filepath.Join(e.global, "hello-world")
	if code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, bundleDir, "hello_world", `{"name":"Ada"}`); code != 0 {
		t.Fatalf("call: %d\n%s%s", code, out, errOut)
	}
	identity := bundleIdentity(e.global, "hello-world")
	other := "hello-world@/elsewhere/hello-world"
	dir := durable.Dir(e.state, "hello-world", identity)
	if err := os.WriteFile(filepath.Join(dir, "data.json"), []byte("{}"), 0o600); err != nil {
		t.Fatalf("the first start did not create the state directory: %v", err)
	}
	st, err := store.Open(context.Background(), e.state)
	if err != nil {
		t.Fatal(err)
	}
	for _, owner := range []string{identity, other} {
		if _, err := st.KVCommit(context.Background(), nil, []store.KVWrite{{Owner: owner, Namespace: "hello-world", Key: "k", Value: []byte(`1`)}}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if code, out, errOut := octetHost(t, "", "bundle", "update", "--root", e.global, pythonHelloBundle(t, "0.2.0", filepath.Join(e.base, "ran"))); code != 0 {
		t.Fatalf("update: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "data.json")); err != nil {
		t.Fatalf("an update lost the state: %v", err)
	}
	code, out, errOut := octetHost(t, "", "bundle", "remove", "--root", e.global, "--state", e.state, "hello-world")
	if code != 0 || !strings.Contains(out, "removed its durable state") || !strings.Contains(out, "KV entries: 1") {
		t.Fatalf("remove: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the state directory is still there: %v", err)
	}
	st, err = store.Open(context.Background(), e.state)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, found, _ := st.KVGetOf(context.Background(), identity, "hello-world", "k"); found {
		t.Fatal("the removed extension's KV entry is still there")
	}
	if _, found, _ := st.KVGetOf(context.Background(), other, "hello-world", "k"); !found {
		t.Fatal("remove deleted another identity's KV entry")
	}
}
