// Package walkthrough_test adds a throwaway method to a copy of the schema, regenerates, and
// shows which hand-written places the compilers and completeness tests then demand: the path
// schema/README.md ("Adding a method") walks through.
package walkthrough_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/octet-kit/octet/codegen/internal/gen"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

const root = "../../.."

// The throwaway methods: one the extension receives (every SDK must handle it) and one it
// sends (every SDK gets a typed descriptor for its helper). They reuse existing types so the
// walkthrough needs no new schema file.
var throwaway = []map[string]any{
	{
		"name": "demo/echo", "direction": "host_to_extension", "kind": "request", "dispatch": "work",
		"versions": []string{"0.4"}, "params": map[string]string{"0.4": "ShutdownParams"},
		"result": map[string]string{"0.4": "ShutdownResult"}, "description": "Throwaway method of the walkthrough test.",
	},
	{
		"name": "demo/ping", "direction": "extension_to_host", "kind": "request", "feature": "kv",
		"versions": []string{"0.4"}, "params": map[string]string{"0.4": "KVGetParams"},
		"result": map[string]string{"0.4": "KVGetResult"}, "description": "Throwaway method of the walkthrough test.",
		"sdk": map[string]any{"service": "demo", "operation": "ping", "arguments": []string{"key"}},
	},
}

// schemaWithThrowaway copies schema/ into a temp dir with the throwaway methods appended to
// methods.json, and generates from it.
func schemaWithThrowaway(t *testing.T) gen.Output {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "schema")
	copyTree(t, filepath.Join(root, "schema"), dir, func(rel string) bool {
		return !strings.Contains(rel, "/") && (strings.HasSuffix(rel, ".schema.json") || rel == "methods.json")
	})
	var reg map[string]any
	b, err := os.ReadFile(filepath.Join(dir, "methods.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &reg); err != nil {
		t.Fatal(err)
	}
	methods := reg["methods"].([]any)
	for _, m := range throwaway {
		methods = append(methods, m)
	}
	reg["methods"] = methods
	if b, err = json.MarshalIndent(reg, "", "  "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "methods.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ir.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	gen.Examples = os.DirFS(filepath.Join(root, "schema", "vectors"))
	out, err := gen.Generate(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAddingAMethod regenerates with the throwaway methods and runs each SDK's compiler or
// completeness test against the regenerated files: each must fail, naming exactly the one
// hand-written dispatch place that now needs a handler. The method the extension sends gets
// its typed descriptor in every language (what the SDK's helper then calls).
func TestAddingAMethod(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go SDK, type-checks the TypeScript SDK and runs the Python completeness test")
	}
	out := schemaWithThrowaway(t)

	// The sent method: typed descriptors for the helpers, no compiler demand.
	for path, want := range map[string]string{
		gen.GoRequestsFile:                        "var RequestDemoPing = RequestType[KVGetParams, KVGetResult]",
		gen.PythonDispatchFile:                    `METHOD_DEMO_PING: Final = "demo/ping"`,
		gen.TSDir + gen.TSRequestsFile:            `DEMO_PING: { kind: "request", method: "demo/ping", feature: "kv", contribution: "", ownerBound: false`,
		"sdk-go/protocol/methods_gen.go":          `MethodDemoPing`,
		"sdk-typescript/src/generated/methods.ts": `DEMO_PING: "demo/ping"`,
		"docs/reference/index.md":                 "demo/ping",
	} {
		if !bytes.Contains(out[path], []byte(want)) {
			t.Errorf("%s: regenerated file lacks %q", path, want)
		}
	}

	var demanded []string
	t.Run("go", func(t *testing.T) {
		dir := t.TempDir()
		copyTree(t, filepath.Join(root, "sdk-go"), dir, func(rel string) bool { return !strings.HasSuffix(rel, "_test.go") })
		overlay(t, out, "sdk-go/", dir)
		msg := mustFail(t, dir, "go", "build", ".")
		want := "hostmethods.go"
		if !strings.Contains(msg, want) || !strings.Contains(msg, "missing method DemoEcho") {
			t.Fatalf("go build should demand DemoEcho in %s; got:\n%s", want, msg)
		}
		demanded = append(demanded, "sdk-go/hostmethods.go: func (hostMethods) DemoEcho")
	})
	t.Run("typescript", func(t *testing.T) {
		tsc := filepath.Join(root, "sdk-typescript", "node_modules", "typescript", "bin", "tsc")
		if _, err := os.Stat(tsc); err != nil {
			t.Skip("no TypeScript compiler installed (go run mage.go buildTypeScript)")
		}
		abs, _ := filepath.Abs(filepath.Join(root, "sdk-typescript"))
		dir := t.TempDir()
		copyTree(t, filepath.Join(abs, "src"), filepath.Join(dir, "src"), func(string) bool { return true })
		for _, f := range []string{"tsconfig.json", "package.json"} {
			copyTree(t, abs, dir, func(rel string) bool { return rel == f })
		}
		if err := os.Symlink(filepath.Join(abs, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		overlay(t, out, "sdk-typescript/", dir)
		// The SDK sources only: the copied tsconfig also includes test/, which is not copied.
		msg := mustFail(t, dir, "node", filepath.Join(abs, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json", "--noEmit")
		if !strings.Contains(msg, "src/dispatch.ts") || !strings.Contains(msg, "demoEcho") {
			t.Fatalf("tsc should demand demoEcho in src/dispatch.ts; got:\n%s", msg)
		}
		demanded = append(demanded, "sdk-typescript/src/dispatch.ts: hostHandlers().demoEcho")
	})
	t.Run("python", func(t *testing.T) {
		py := filepath.Join(root, ".venv", "bin", "python")
		if _, err := os.Stat(py); err != nil {
			t.Skip("no Python venv (go run mage.go pythonEnv)")
		}
		abs, _ := filepath.Abs(py)
		dir := t.TempDir()
		copyTree(t, filepath.Join(root, "sdk-python", "src"), filepath.Join(dir, "src"), func(rel string) bool { return !strings.Contains(rel, "__pycache__") })
		overlay(t, out, "sdk-python/", dir)
		cmd := exec.Command(abs, "-c", "import sys; sys.path.insert(0, 'src'); sys.path.insert(0, 'tests'); import test_dispatch_gen as t; t.test_sdk_implements_every_received_method()")
		cmd.Dir = dir
		got, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(got), "Session.on_demo_echo (demo/echo)") {
			t.Fatalf("the completeness test should demand Session.on_demo_echo; err %v, output:\n%s", err, got)
		}
		demanded = append(demanded, "sdk-python/src/octet_extension/_session.py: Session.on_demo_echo")
	})
	t.Logf("adding a received method: the compilers and completeness tests demand\n  %s", strings.Join(demanded, "\n  "))
}

// overlay writes the generated files under prefix into dir.
func overlay(t *testing.T, out gen.Output, prefix, dir string) {
	t.Helper()
	for p, b := range out {
		if rel, ok := strings.CutPrefix(p, prefix); ok {
			dst := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// mustFail runs a command that must fail and returns its output.
func mustFail(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	got, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("%s %v succeeded; the regenerated interface should have demanded a handler", name, args)
	}
	return string(got)
}

// copyTree copies the regular files under src that keep accepts (by slash path relative to
// src) into dst.
func copyTree(t *testing.T, src, dst string, keep func(rel string) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "node_modules" || d.Name() == "dist" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !keep(rel) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
