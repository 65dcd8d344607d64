package conformance_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// TestLanguageFixturesAgainstNewChecks runs negotiation.vectors and
// cancel.non_cooperative_terminated against the Go, Python and TypeScript conformance
// fixtures, each built with its SDK (ignore_cancel ignores $/cancelRequest in each language),
// so the host's non-cooperative termination and the one negotiation verdict are shown for
// real SDK extensions and not only the raw fixture. A language whose toolchain or build is
// missing (no python3, no compiled TypeScript fixture) is skipped, naming what to run.
func TestLanguageFixturesAgainstNewChecks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real SDK processes")
	}
	for _, lang := range []string{"go", "python", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			dir, _ := filepath.Abs(filepath.Join("..", "..", "examples", lang, "conformance-fixture"))
			switch lang {
			case "go":
				// Build what the run launcher would build on the first start, so a cold
				// build (a fresh clone, a changed SDK) is not timed as the handshake.
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
			for _, name := range []string{"negotiation.vectors", "cancel.non_cooperative_terminated", "schema.integral_numbers", "rpc.strict_json", "state.kv_secret_refused", "state.kv_migration",
				"config.configure_answered", "config.settings_delivered", "config.dry_run_changes_nothing", "config.refusal_keeps_old",
				"idempotency.key_accepted", "idempotency.key_delivered", "interaction.durable", "interaction.options"} {
				c, ok := conformance.Lookup(name)
				if !ok {
					t.Fatalf("check %s is not registered", name)
				}
				res := conformance.RunCheck(t.Context(), c, ext, testOptions)
				if res.Status != conformance.Pass {
					t.Errorf("%s against the %s fixture: %s (%s; expected %s)", name, lang, res.Status, res.Detail, res.Expected)
				}
			}
		})
	}
}
