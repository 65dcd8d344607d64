package main

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// `octet-host call` with an integer argument written 7.0 or 7e0: the host passes it (draft
// 2020-12), and the Go, Python and TypeScript conformance fixtures' typed tool answers "x:7"
// (Go's int64 field got 7, Python's handler an int, not 7.0); 7.5 is refused by the host
// before sending. Before issue 25 every SDK refused 7.0 with -32602 after the host had
// passed it.
func TestCallDeliversIntegralNumbersAsIntegers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the three conformance fixtures")
	}
	_, file, _, _ := goruntime.Caller(0)
	examples := filepath.Join(filepath.Dir(file), "..", "..", "..", "examples")
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(examples, lang, "conformance-fixture")
			switch lang {
			case "go":
				build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
				build.Dir = dir
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("building the fixture: %v\n%s", err, out)
				}
			case "python":
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("python3 is not on PATH")
				}
			case "typescript":
				if _, err := os.Stat(filepath.Join(dir, "dist", "fixture.js")); err != nil {
					t.Skip("the TypeScript fixture is not built (go run mage.go buildTypeScript)")
				}
			}
			e := newEnv(t)
			code, out, errOut := octetHost(t, "", "call", "--state", e.state, "--config", e.config, dir,
				"typed", `{"count":7.0,"label":"x"}`, "typed", `{"count":7e0,"label":"y"}`, "typed", `{"count":7.5,"label":"z"}`)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 3 {
				t.Fatalf("exit %d, want 3 lines\nstdout: %s\nstderr: %s", code, out, errOut)
			}
			for i, want := range []string{`"text":"x:7"`, `"text":"y:7"`, `"kind":"arguments_refused"`} {
				if !strings.Contains(lines[i], want) {
					t.Errorf("line %d: %s, want %s\nstderr: %s", i+1, lines[i], want, errOut)
				}
			}
			if !strings.Contains(lines[0], `"structured_content":{"count":7}`) {
				t.Errorf("structured_content: %s", lines[0])
			}
		})
	}
}
