package main

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const kvmigrateManifest = `name = "kvmigrate"
version = "0.1.0"
api_version = "0.4"

[entrypoint]
command = "run"

[contributes]
tools = ["remember", "recall"]

[state]
kv_version = %d

# The Python and TypeScript launchers run the kit's venv and SDKs, outside this directory.
[capabilities]
read = [%q]
`

// kvmigrate writes testdata/kvmigrate/<lang> as an extension directory under parent, with
// a run launcher for a real process of that language.
func kvmigrate(t *testing.T, lang, parent string) string {
	t.Helper()
	dir := filepath.Join(parent, "kvmigrate")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	kit, _ := filepath.Abs("../../..")
	var run string
	switch lang {
	case "go":
		bin := filepath.Join(dir, "extension")
		if out, err := exec.Command("go", "build", "-o", bin, "./testdata/kvmigrate/go").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		run = "exec '" + bin + "' \"$@\""
	case "python":
		python := filepath.Join(kit, ".venv", "bin", "python")
		if _, err := os.Stat(python); err != nil {
			t.Fatalf("%s is missing: run `go run mage.go pythonEnv` first", python)
		}
		copyFile(t, "testdata/kvmigrate/python/extension.py", filepath.Join(dir, "extension.py"), "", "")
		run = "PYTHONPATH='" + filepath.Join(kit, "sdk-python", "src") + "' exec '" + python + "' \"${0%/*}/extension.py\" \"$@\""
	case "typescript":
		sdk := filepath.Join(kit, "sdk-typescript", "dist", "src", "index.js")
		if _, err := os.Stat(sdk); err != nil {
			t.Fatalf("%s is missing: run `go run mage.go buildTypeScript` first", sdk)
		}
		u := url.URL{Scheme: "file", Path: sdk}
		copyFile(t, "testdata/kvmigrate/typescript/extension.mjs", filepath.Join(dir, "extension.mjs"), "@SDK@", u.String())
		run = "exec node \"${0%/*}/extension.mjs\" \"$@\""
	}
	if err := os.WriteFile(filepath.Join(dir, "run"), []byte("#!/bin/sh\n"+run+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to, old, new string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if old != "" {
		b = []byte(strings.ReplaceAll(string(b), old, new))
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestKVMigrationThroughTheHost: the same extension in Go, Python and TypeScript, each a
// real process started by octet-host call on one state directory. At [state] kv_version 1
// it stores a note; the manifest then declares 2 and the next process reads the note
// migrated by its registered step (wrapped once); a restart at 2 reads it unchanged (a
// second run would wrap it twice). Without the SDKs' migrations the second call reads
// "migrated 0".
func TestKVMigrationThroughTheHost(t *testing.T) {
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			e := newEnv(t)
			dir := kvmigrate(t, lang, t.TempDir())
			declare := func(v int) {
				if err := os.WriteFile(filepath.Join(dir, "extension.toml"), fmt.Appendf(nil, kvmigrateManifest, v, kitRoot(t)), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			call := func(args ...string) string {
				t.Helper()
				code, out, errOut := octetHost(t, "", append([]string{"call", "--state", e.state, "--config", e.config, dir}, args...)...)
				if code != exitOK {
					t.Fatalf("call %v: exit %d\n%s\n%s", args, code, out, errOut)
				}
				return out
			}
			declare(1)
			call("remember", `{"text":"hello"}`)
			if out := call("recall"); !strings.Contains(out, "note: hello, migrated 0") {
				t.Fatalf("at version 1: %s", out)
			}
			declare(2)
			if out := call("recall"); !strings.Contains(out, "note: hello, migrated 1") {
				t.Fatalf("the first run at version 2 did not migrate once: %s", out)
			}
			if out := call("recall"); !strings.Contains(out, "note: hello, migrated 1") {
				t.Fatalf("a restart at version 2 migrated again: %s", out)
			}
		})
	}
}

// kitRoot is the checkout the tests run in.
func kitRoot(t *testing.T) string {
	t.Helper()
	kit, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return kit
}
