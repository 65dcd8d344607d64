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
	if err := buildTypeScriptFixture(filepath.Dir(bench), logf); err != nil {
		return err
	}
	if err := buildGoFixture(filepath.Dir(bench), bench, logf); err != nil {
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

// buildTypeScriptFixture compiles the TypeScript SDK and its examples (one tsc build in
// sdk-typescript) when the fixture is present but not built: dist/ is not committed.
func buildTypeScriptFixture(root string, logf func(string, ...any)) error {
	fixture := filepath.Join(root, "examples", "typescript", "conformance-fixture")
	if _, err := os.Stat(filepath.Join(fixture, "extension.toml")); err != nil {
		return nil // not in this checkout; the plan reports it
	}
	if _, err := os.Stat(filepath.Join(fixture, "dist", "extension.js")); err == nil {
		return nil
	}
	sdk := filepath.Join(root, "sdk-typescript")
	if _, err := os.Stat(filepath.Join(sdk, "node_modules", "typescript")); err != nil {
		logf("npm ci in %s", sdk)
		if err := runIn(sdk, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
			return err
		}
	}
	logf("build the TypeScript SDK and examples (npm run build in %s)", sdk)
	return runIn(sdk, nil, "npm", "run", "--silent", "build")
}

// goFixtureBinary is where setup builds the Go fixture (see target.Rebind).
func goFixtureBinary(bench string) string {
	return filepath.Join(bench, ".work", "bin", "go-conformance-fixture")
}

// buildGoFixture builds examples/go/conformance-fixture with the main module.
func buildGoFixture(root, bench string, logf func(string, ...any)) error {
	if _, err := os.Stat(filepath.Join(root, "examples", "go", "conformance-fixture", "extension.toml")); err != nil {
		return nil // not in this checkout; the plan reports it
	}
	logf("build ./examples/go/conformance-fixture")
	return runIn(root, nil, "go", "build", "-o", goFixtureBinary(bench), "./examples/go/conformance-fixture")
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
