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
		octetStart(&floor, filepath.Join(bench, "floors", floorDir[lang]), env[lang], via, target.EchoCall)
		ts = append(ts, floor)
		ts = append(ts, exampleTarget(root, bench, lang, env[lang], via, fixtureExample))
		ts = append(ts, exampleTarget(root, bench, lang, env[lang], via, helloExample))
		ts = append(ts, mcpTarget(bench, work, lang))
	}
	ts = append(ts, target.Target{
		ID: "go-plugin", Name: "go-plugin (gRPC)", Lang: "go", Kind: target.GoPlugin, Via: target.ViaGoPlugin,
		Start: target.GoPluginStart(filepath.Join(work, "bin", "goplugin-echo")),
	})
	return ts
}

// example is one of the kit's examples measured as an octet target: the conformance
// fixture (27 tools; the latency, crash and artifact scenarios need its tools) or the
// hello-world (one tool, like the floor; what the memory, cold-start and scale targets
// of issue 17 name).
type example struct {
	dir  string // under examples/LANG
	id   string // target id prefix: id + "-" + lang
	kind target.Kind
	call target.Call
}

var (
	fixtureExample = example{dir: "conformance-fixture", id: "octet", kind: target.SDK, call: target.EchoCall}
	helloExample   = example{dir: "hello-world", id: "hello", kind: target.Hello, call: target.HelloCall}
)

// exampleTarget is example ex of our SDK in lang.
func exampleTarget(root, bench, lang string, env []string, via string, ex example) target.Target {
	rel := filepath.Join("examples", lang, ex.dir)
	dir := filepath.Join(root, rel)
	t := target.Target{ID: ex.id + "-" + lang, Name: "octet SDK " + ex.dir + " (" + langTitle[lang] + ")", Lang: lang, Kind: ex.kind}
	if _, err := os.Stat(filepath.Join(dir, "extension.toml")); err != nil {
		t.Missing = rel + " is not in this checkout yet"
		return t
	}
	ext, err := target.LoadExtension(dir)
	if err != nil {
		t.Missing = err.Error()
		return t
	}
	// The name says which extension a row measures: the fixture's tool count is read from
	// its manifest, so the label follows the fixture when tools are added.
	t.Tools = len(ext.Tools)
	t.Name = fmt.Sprintf("octet SDK %s, %d tool%s (%s)", ex.dir, len(ext.Tools), map[bool]string{true: "", false: "s"}[len(ext.Tools) == 1], langTitle[lang])
	if lang == "typescript" {
		if _, err := os.Stat(filepath.Join(dir, "dist", "extension.js")); err != nil {
			t.Missing = rel + " is not built (setup builds it: tsc -b examples/typescript)"
			return t
		}
	}
	if lang == "go" {
		bin := goExampleBinary(bench, ex.dir)
		if _, err := os.Stat(bin); err != nil {
			t.Missing = rel + " is not built (setup builds it; run without -skip-setup)"
			return t
		}
		cp, err := target.Rebind(dir, bin, filepath.Join(bench, ".work", ex.id+"-go"))
		if err != nil {
			t.Missing = err.Error()
			return t
		}
		dir = cp
		t.Note = "started as the binary built once by setup. The example's launcher (`run`) execs its `.bin/extension` when that is newer than the example's and sdk-go's sources (the check, shell builtins over both, adds about 2 ms to a start; the `find` it used before added about 5) and runs `go build` first only after a change"
	}
	octetStart(&t, dir, env, via, ex.call)
	return t
}

// octetStart sets how an octet extension directory is started; its sessions' Echo makes call.
func octetStart(t *target.Target, dir string, env []string, via string, call target.Call) {
	if via == "direct" {
		t.Via, t.Start = target.ViaDirect, target.OctetDirect(dir, env, call)
		return
	}
	t.Via, t.Start = target.ViaHost, target.HostStart(dir, env, call)
	t.Direct = target.OctetDirect(dir, env, call)
	t.StartGroup = target.HostGroupStart(dir, env, call)
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
