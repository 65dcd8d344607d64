package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// The owner.* checks pass against the session-owner example of each language, a real SDK
// process owning the session (its before_prompt hook, its private audit_log tool).
func TestOwnerChecksPassTheSessionOwnerExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real SDK processes")
	}
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("..", "..", "examples", lang, "session-owner"))
			switch lang {
			case "go":
				build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
				build.Dir = dir
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("go build the Go example: %v\n%s", err, out)
				}
			case "python":
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("python3 is not on PATH")
				}
			case "typescript":
				if _, err := os.Stat(filepath.Join(dir, "dist", "extension.js")); err != nil {
					t.Skip("the TypeScript example is not built (go run mage.go buildTypeScript)")
				}
			}
			ext, err := conformance.LoadExtension(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"owner.exclusive", "owner.hook_fail_closed", "owner.catalog_enforced"} {
				c, ok := conformance.Lookup(name)
				if !ok {
					t.Fatalf("check %s is not registered", name)
				}
				res := conformance.RunCheck(t.Context(), c, ext, testOptions)
				if res.Status != conformance.Pass {
					t.Errorf("%s against the %s session-owner: %s (%s; expected %s)", name, lang, res.Status, res.Detail, res.Expected)
				}
			}
		})
	}
}

// catalog.atomic_replace passes against the conformance fixture of each language: each
// SDK's catalog replacement is one tools/replace, refused whole.
func TestAtomicReplacePassesTheLanguageFixtures(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real SDK processes")
	}
	c, ok := conformance.Lookup("catalog.atomic_replace")
	if !ok {
		t.Fatal("catalog.atomic_replace is not registered")
	}
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("..", "..", "examples", lang, "conformance-fixture"))
			switch lang {
			case "go":
				build := exec.Command("go", "build", "-o", filepath.Join(dir, ".bin", "extension"), ".")
				build.Dir = dir
				if out, err := build.CombinedOutput(); err != nil {
					t.Fatalf("go build the Go fixture: %v\n%s", err, out)
				}
			case "python":
				if _, err := exec.LookPath("python3"); err != nil {
					t.Skip("python3 is not on PATH")
				}
			case "typescript":
				built, err := os.Stat(filepath.Join(dir, "dist", "fixture.js"))
				if err != nil {
					t.Skip("the TypeScript fixture is not built (go run mage.go buildTypeScript)")
				}
				if src, err := os.Stat(filepath.Join(dir, "fixture.ts")); err == nil && src.ModTime().After(built.ModTime()) {
					t.Skip("the TypeScript fixture's build is older than fixture.ts (go run mage.go buildTypeScript)")
				}
			}
			ext, err := conformance.LoadExtension(dir)
			if err != nil {
				t.Fatal(err)
			}
			res := conformance.RunCheck(t.Context(), c, ext, testOptions)
			if res.Status != conformance.Pass {
				t.Errorf("catalog.atomic_replace against the %s fixture: %s (%s; expected %s)", lang, res.Status, res.Detail, res.Expected)
			}
		})
	}
}
