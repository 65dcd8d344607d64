package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/bench/internal/target"
)

// langs in table order; "typescript" covers Node floors and peers too.
var langs = []string{"go", "python", "typescript"}

var langTitle = map[string]string{"go": "Go", "python": "Python", "typescript": "TypeScript"}

// plan lists every target in table order, marking those this checkout cannot run.
// via is "host" (octet targets run inside the reference host library, host overhead
// included) or "direct" (the harness speaks sdk-go/jsonrpc to them itself).
func plan(root, bench, via string) []target.Target {
	work := filepath.Join(bench, ".work")
	floorDir := map[string]string{"go": "floor-go", "python": "floor-python", "typescript": "floor-node"}
	floorName := map[string]string{"go": "floor (Go)", "python": "floor (Python)", "typescript": "floor (Node)"}
	env := langEnv(root)
	var ts []target.Target
	for _, lang := range langs {
		floor := target.Target{ID: "floor-" + lang, Name: floorName[lang], Lang: lang, Kind: target.Floor}
		octetStart(&floor, filepath.Join(bench, "floors", floorDir[lang]), env[lang], via)
		ts = append(ts, floor)
		ts = append(ts, fixtureTarget(root, bench, lang, env[lang], via))
		ts = append(ts, mcpTarget(bench, work, lang))
	}
	ts = append(ts, target.Target{
		ID: "go-plugin", Name: "go-plugin (gRPC)", Lang: "go", Kind: target.GoPlugin, Via: target.ViaGoPlugin,
		Start: target.GoPluginStart(filepath.Join(work, "bin", "goplugin-echo")),
	})
	return ts
}

// fixtureTarget is our SDK's conformance fixture in lang, driven directly.
func fixtureTarget(root, bench, lang string, env []string, via string) target.Target {
	rel := filepath.Join("examples", lang, "conformance-fixture")
	dir := filepath.Join(root, rel)
	t := target.Target{ID: "octet-" + lang, Name: "octet SDK (" + langTitle[lang] + ")", Lang: lang, Kind: target.SDK}
	if _, err := os.Stat(filepath.Join(dir, "extension.toml")); err != nil {
		t.Missing = rel + " is not in this checkout yet"
		return t
	}
	if _, err := target.LoadExtension(dir); err != nil {
		t.Missing = err.Error()
		return t
	}
	if lang == "typescript" {
		if _, err := os.Stat(filepath.Join(dir, "dist", "extension.js")); err != nil {
			t.Missing = rel + " is not built (npm run build in sdk-typescript)"
			return t
		}
	}
	if lang == "go" {
		bin := goFixtureBinary(bench)
		if _, err := os.Stat(bin); err != nil {
			t.Missing = rel + " is not built (setup builds it; run without -skip-setup)"
			return t
		}
		cp, err := target.Rebind(dir, bin, filepath.Join(bench, ".work", "fixture-go"))
		if err != nil {
			t.Missing = err.Error()
			return t
		}
		dir = cp
		t.Note = "started as the binary built once by setup. The example's launcher (`run`) execs its `.bin/extension` when that is newer than the example's and sdk-go's sources (the check, shell builtins over both, adds about 2 ms to a start; the `find` it used before added about 5) and runs `go build` first only after a change"
	}
	octetStart(&t, dir, env, via)
	return t
}

// octetStart sets how an octet extension directory is started.
func octetStart(t *target.Target, dir string, env []string, via string) {
	if via == "direct" {
		t.Via, t.Start = target.ViaDirect, target.OctetDirect(dir, env)
		return
	}
	t.Via, t.Start = target.ViaHost, target.HostStart(dir, env)
	t.Direct = target.OctetDirect(dir, env)
	t.StartGroup = target.HostGroupStart(dir, env)
}

func mcpTarget(bench, work, lang string) target.Target {
	t := target.Target{ID: "mcp-" + lang, Name: "MCP SDK (" + langTitle[lang] + ")", Lang: lang, Kind: target.MCP, Via: target.ViaMCPGo}
	switch lang {
	case "go":
		t.Start = target.MCPStdio(filepath.Join(work, "bin", "mcp-go"), nil, bench, nil)
	case "python":
		t.Start = target.MCPStdio(filepath.Join(work, "venv", "bin", "python"),
			[]string{filepath.Join(bench, "peers", "mcp-python", "server.py")}, bench, nil)
	case "typescript":
		t.Start = target.MCPStdio("node", []string{filepath.Join(bench, "peers", "mcp-ts", "server.mjs")}, bench, nil)
	default:
		panic(fmt.Sprintf("no MCP peer for %q", lang))
	}
	return t
}

// pythonInterp is the one Python the floor, the bare baseline and the SDK fixture
// share: the kit's .venv (what the fixture's launcher prefers), else the real
// executable behind python3. A version manager's python3 is often a shell shim that
// costs tens of milliseconds per start, which would swamp what we measure.
// OCTET_BENCH_PYTHON overrides the choice (for example a wrapper that profiles).
func pythonInterp(root string) string {
	if p := os.Getenv("OCTET_BENCH_PYTHON"); p != "" {
		return p
	}
	if p := filepath.Join(root, ".venv", "bin", "python"); isExec(p) {
		return p
	}
	if out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output(); err == nil {
		if p := strings.TrimSpace(string(out)); isExec(p) {
			return p
		}
	}
	return "python3"
}

func isExec(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// langEnv is extra environment for each language's floor and fixture. OCTET_PYTHON
// is read by both Python launchers.
func langEnv(root string) map[string][]string {
	return map[string][]string{"python": {"OCTET_PYTHON=" + pythonInterp(root)}}
}

// bareStarts are the cold-start baselines: the interpreter or binary doing nothing,
// run to exit.
func bareStarts(root, work string) map[string][]string {
	return map[string][]string{
		"go":         {filepath.Join(work, "bin", "bare-go")},
		"python":     {pythonInterp(root), "-c", "pass"},
		"typescript": {"node", "-e", "0"},
	}
}
