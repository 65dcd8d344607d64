package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kvTwin copies testdata/kvtwin into a new directory with a launcher naming the kit's
// venv interpreter and SDK source by absolute path.
func kvTwin(t *testing.T, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "kvtwin")
	os.MkdirAll(dir, 0o755)
	for _, f := range []string{"extension.toml", "extension.py"} {
		b, err := os.ReadFile(filepath.Join("testdata/kvtwin", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	python, _ := filepath.Abs("../../../.venv/bin/python")
	sdk, _ := filepath.Abs("../../../sdk-python/src")
	if _, err := os.Stat(python); err != nil {
		t.Fatalf("%s is missing: run `go run mage.go pythonEnv` first", python)
	}
	os.WriteFile(filepath.Join(dir, "run"), []byte("#!/bin/sh\nPYTHONPATH='"+sdk+"' exec '"+python+"' \"${0%/*}/extension.py\" \"$@\"\n"), 0o755)
	// The launcher runs the kit's venv and SDK source, outside the extension's own directory:
	// the sandbox lets it read them only when the manifest says so.
	venv := filepath.Dir(filepath.Dir(python))
	appendFile(t, filepath.Join(dir, "extension.toml"), fmt.Sprintf("\n[capabilities]\nread = [%q, %q]\n", venv, sdk))
	return dir
}

// TestKVNamespaceBelongsToIdentity: two directories declaring the same name "kvtwin", on
// one state directory. What the first stores, the second does not read, and the second's
// own note does not overwrite the first's: each reads back its own. Before KV identity,
// B read A's note and then overwrote it.
func TestKVNamespaceBelongsToIdentity(t *testing.T) {
	e := newEnv(t)
	a, b := kvTwin(t, t.TempDir()), kvTwin(t, t.TempDir())
	state := filepath.Join(t.TempDir(), "state")
	call := func(dir string, args ...string) string {
		t.Helper()
		code, out, errOut := octetHost(t, "", append([]string{"call", "--state", state, "--config", e.config, dir}, args...)...)
		if code != exitOK {
			t.Fatalf("call %s %v: exit %d\n%s\n%s", dir, args, code, out, errOut)
		}
		return strings.TrimSpace(out)
	}
	call(a, "remember", `{"text":"from A"}`)
	if got := call(b, "recall"); !strings.Contains(got, `"nothing"`) {
		t.Fatalf("B read A's namespace: %s", got)
	}
	call(b, "remember", `{"text":"from B"}`)
	if got := call(a, "recall"); !strings.Contains(got, `"note: from A"`) {
		t.Fatalf("A's note: %s", got)
	}
	if got := call(b, "recall"); !strings.Contains(got, `"note: from B"`) {
		t.Fatalf("B's note: %s", got)
	}
	// The same directory reached through a symbolic link is the same identity.
	link := filepath.Join(t.TempDir(), "kvtwin")
	if err := os.Symlink(a, link); err != nil {
		t.Fatal(err)
	}
	if got := call(link, "recall"); !strings.Contains(got, `"note: from A"`) {
		t.Fatalf("A through a link: %s", got)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
