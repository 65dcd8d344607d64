package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// setup builds and installs everything the targets need, idempotently: the Go
// binaries (floor, bare baseline, MCP Go peer, go-plugin peer), a private venv
// with the pinned MCP Python SDK, and the MCP TypeScript SDK from its lock file.
// Everything lands under bench/.work/ or next to the floor (git-ignored).
func setup(bench string, logf func(string, ...any)) error {
	if err := buildTypeScriptExamples(filepath.Dir(bench), logf); err != nil {
		return err
	}
	if err := buildGoExamples(filepath.Dir(bench), bench, logf); err != nil {
		return err
	}
	bin := filepath.Join(bench, ".work", "bin")
	builds := [][2]string{
		{"./floors/floor-go", filepath.Join(bench, "floors", "floor-go", "bin", "floor-go")},
		{"./floors/bare-go", filepath.Join(bin, "bare-go")},
		{"./peers/mcp-go", filepath.Join(bin, "mcp-go")},
		{"./peers/goplugin/plugin", filepath.Join(bin, "goplugin-echo")},
	}
	for _, b := range builds {
		logf("build %s", b[0])
		if err := runIn(bench, nil, "go", "build", "-mod=mod", "-o", b[1], b[0]); err != nil {
			return err
		}
	}
	venv := filepath.Join(bench, ".work", "venv")
	py := filepath.Join(venv, "bin", "python")
	if err := exec.Command(py, "-c", "import mcp.server.mcpserver").Run(); err != nil {
		logf("create %s and install the MCP Python SDK", venv)
		if err := runIn(bench, nil, "python3", "-m", "venv", venv); err != nil {
			return err
		}
		if err := runIn(bench, nil, py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
			"-r", filepath.Join(bench, "peers", "mcp-python", "requirements.txt")); err != nil {
			return err
		}
	}
	ts := filepath.Join(bench, "peers", "mcp-ts")
	if _, err := os.Stat(filepath.Join(ts, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		logf("npm ci the MCP TypeScript SDK in %s", ts)
		if err := runIn(ts, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
			return err
		}
	}
	return nil
}

// measuredExamples are the examples/LANG directories the plan measures (see plan.go).
var measuredExamples = []string{fixtureExample.dir, helloExample.dir}

// buildTypeScriptExamples compiles the TypeScript SDK and the examples when a measured
// example is present but not built (dist/ is not committed), the way `go run mage.go
// buildTypeScript` does: the SDK's own build compiles only the package, so the examples
// get the SDK linked into examples/typescript/node_modules and one `tsc -b` over them.
func buildTypeScriptExamples(root string, logf func(string, ...any)) error {
	built := true
	for _, ex := range measuredExamples {
		dir := filepath.Join(root, "examples", "typescript", ex)
		if _, err := os.Stat(filepath.Join(dir, "extension.toml")); err != nil {
			continue // not in this checkout; the plan reports it
		}
		if _, err := os.Stat(filepath.Join(dir, "dist", "extension.js")); err != nil {
			built = false
		}
	}
	if built {
		return nil
	}
	sdk := filepath.Join(root, "sdk-typescript")
	if _, err := os.Stat(filepath.Join(sdk, "node_modules", "typescript")); err != nil {
		logf("npm ci in %s", sdk)
		if err := runIn(sdk, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
			return err
		}
	}
	logf("build the TypeScript SDK (npm run build in %s) and the examples (tsc -b examples/typescript)", sdk)
	if err := runIn(sdk, nil, "npm", "run", "--silent", "build"); err != nil {
		return err
	}
	if err := runIn(sdk, nil, "node", "scripts/link-examples.mjs"); err != nil {
		return err
	}
	return runIn(filepath.Join(root, "examples", "typescript"), nil, filepath.Join(sdk, "node_modules", ".bin", "tsc"), "-b", ".")
}

// goExampleBinary is where setup builds the Go example examples/go/<dir> (see target.Rebind).
func goExampleBinary(bench, dir string) string {
	return filepath.Join(bench, ".work", "bin", "go-"+dir)
}

// buildGoExamples builds the measured Go examples with the main module.
func buildGoExamples(root, bench string, logf func(string, ...any)) error {
	for _, ex := range measuredExamples {
		pkg := "./examples/go/" + ex
		if _, err := os.Stat(filepath.Join(root, pkg, "extension.toml")); err != nil {
			continue // not in this checkout; the plan reports it
		}
		logf("build %s", pkg)
		if err := runIn(root, nil, "go", "build", "-o", goExampleBinary(bench, ex), pkg); err != nil {
			return err
		}
	}
	return nil
}

func runIn(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s (in %s): %w\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return nil
}
