//go:build mage

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/magefile/mage/mg"
)

// mcpServersDir holds the MCP servers the mcp module's tests run against: the npm
// servers and MCP Inspector (package.json + package-lock.json) and a FastMCP venv
// (requirements.txt, every version pinned). node_modules and .venv are git-ignored.
const mcpServersDir = "mcp/testdata/servers"

// McpServers installs the MCP test servers once: npm ci when node_modules is missing or
// older than package-lock.json, and the FastMCP venv when it is missing or older than
// requirements.txt. A second run with nothing changed does nothing.
func McpServers() error {
	lock := filepath.Join(mcpServersDir, "package-lock.json")
	stamp := filepath.Join(mcpServersDir, "node_modules", ".package-lock.json")
	if newer(lock, stamp) {
		if err := run(mcpServersDir, nil, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"); err != nil {
			return err
		}
	}
	venv := filepath.Join(mcpServersDir, ".venv")
	reqs := filepath.Join(mcpServersDir, "requirements.txt")
	done := filepath.Join(venv, ".installed")
	if newer(reqs, done) || !exists(filepath.Join(venv, "bin", "fastmcp")) {
		if !exists(filepath.Join(venv, "bin", "python")) {
			if err := run(".", nil, "python3", "-m", "venv", venv); err != nil {
				return err
			}
		}
		py := filepath.Join(root(), venv, "bin", "python")
		if err := run(".", nil, py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", reqs); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(root(), done), nil, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// newer reports whether src is newer than dst, or dst is missing.
func newer(src, dst string) bool {
	d, err := os.Stat(filepath.Join(root(), dst))
	if err != nil {
		return true
	}
	s, err := os.Stat(filepath.Join(root(), src))
	return err != nil || s.ModTime().After(d.ModTime())
}

// mcpBundleName is octet-mcp's bundle archive in dist/ for one platform.
func mcpBundleName(v, goos, goarch string) string {
	return fmt.Sprintf("octet-mcp-%s-%s-%s.tar.gz", v, goos, goarch)
}

// distMCP writes, for every host platform, the octet-mcp bundle (one root directory
// octet-mcp/ holding extension.toml pinned to this octet version, the octet-mcp binary
// and its README) and the octet-mcp-gateway binary.
func distMCP(out, v string) error {
	manifest, err := os.ReadFile(filepath.Join(root(), "mcp", "cmd", "octet-mcp", "extension.toml"))
	if err != nil {
		return err
	}
	// Bundles must pin exactly the host's version; the source manifest, an unpackaged
	// local copy, does not.
	stamped := strings.Replace(string(manifest), "api_version = ", fmt.Sprintf("requires_octet = \"=%s\"\napi_version = ", v), 1)
	readme, err := os.ReadFile(filepath.Join(root(), "mcp", "cmd", "octet-mcp", "BUNDLE.md"))
	if err != nil {
		return err
	}
	for _, t := range hostTargets {
		env := []string{"GOOS=" + t[0], "GOARCH=" + t[1], "CGO_ENABLED=0"}
		gw := filepath.Join(out, fmt.Sprintf("octet-mcp-gateway-%s-%s-%s", v, t[0], t[1]))
		if err := run("mcp", env, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", gw, "./cmd/octet-mcp-gateway"); err != nil {
			return err
		}
		stage, err := os.MkdirTemp("", "octet-mcp-bundle-")
		if err != nil {
			return err
		}
		dir := filepath.Join(stage, "octet-mcp")
		err = os.MkdirAll(dir, 0o755)
		if err == nil {
			err = run("mcp", env, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "octet-mcp"), "./cmd/octet-mcp")
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "extension.toml"), []byte(stamped), 0o644)
		}
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "README.md"), readme, 0o644)
		}
		if err == nil {
			err = packBundle(dir, filepath.Join(out, mcpBundleName(v, t[0], t[1])))
		}
		os.RemoveAll(stage)
		if err != nil {
			return err
		}
	}
	return nil
}

// freshMCP installs this platform's octet-mcp bundle from dist/ with the released
// octet-host and calls its mcp_status from the installed directory.
func freshMCP(work, dist string, env []string, v string) error {
	archive := filepath.Join(dist, mcpBundleName(v, runtime.GOOS, runtime.GOARCH))
	exts := filepath.Join(work, "mcp-extensions")
	if out, err := freshRun(work, env, "octet-host", "bundle", "install", "--root", exts, archive); err != nil {
		return fmt.Errorf("bundle install of %s: %v\n%s", filepath.Base(archive), err, out)
	}
	out, err := freshRun(work, env, "octet-host", "call", filepath.Join(exts, "octet-mcp"), "mcp_status", `{"wait":true}`)
	if err != nil || !strings.Contains(out, `"servers":[]`) {
		return fmt.Errorf("octet-mcp from its bundle: mcp_status said %q (%v)", out, err)
	}
	return nil
}

// BenchMCP measures octet-mcp (mcp/e2e/bench_test.go): the latency it adds per call over
// calling the MCP server directly, interleaved with the octet hop alone
// (BenchmarkBridgeAddedLatency: added-p50-µs), each path timed alone (p50, p99), and
// cold starts. Calls run 3000 times, cold starts 30 (each starts processes).
func BenchMCP() error {
	if err := run("mcp", nil, "go", "test", "./e2e", "-run", "^$", "-bench", "^Benchmark(BridgeAddedLatency|Call)", "-benchtime", "3000x", "-count", "1"); err != nil {
		return err
	}
	return run("mcp", nil, "go", "test", "./e2e", "-run", "^$", "-bench", "^BenchmarkColdStart", "-benchtime", "30x", "-count", "1")
}

// mcpMatrixFile is where the mcp module's TestCompatibilityMatrix writes its table
// (OCTET_MCP_MATRIX), git-ignored: a run's output, rendered into docs/mcp.md by McpMatrix.
const mcpMatrixFile = "mcp/testdata/matrix.md"

// printMCPMatrix prints the table the last run of the mcp tests wrote, when there is one.
func printMCPMatrix() {
	if b, err := os.ReadFile(filepath.Join(root(), mcpMatrixFile)); err == nil {
		fmt.Printf("MCP compatibility matrix (mcp/e2e TestCompatibilityMatrix):\n\n%s\n", b)
	}
}

// McpMatrix runs the MCP compatibility matrix (real clients against octet-mcp-gateway,
// real servers behind octet-mcp, every version pinned in mcp/testdata/servers) and
// renders the table it printed into docs/mcp.md, between the matrix markers.
func McpMatrix() error {
	mg.Deps(McpServers, PythonEnv, BuildTypeScript)
	out := filepath.Join(root(), mcpMatrixFile)
	_ = os.Remove(out)
	env := []string{"OCTET_MCP_SERVERS=required", "OCTET_MCP_MATRIX=" + out}
	if err := run("mcp", env, "go", "test", "-count=1", "-run", "^TestCompatibilityMatrix$", "./e2e"); err != nil {
		return err
	}
	table, err := os.ReadFile(out)
	if err != nil {
		return err
	}
	doc := filepath.Join(root(), "docs", "mcp.md")
	b, err := os.ReadFile(doc)
	if err != nil {
		return err
	}
	const begin, end = "<!-- matrix:begin (go run mage.go mcpMatrix) -->\n", "<!-- matrix:end -->"
	i, j := strings.Index(string(b), begin), strings.Index(string(b), end)
	if i < 0 || j < i {
		return fmt.Errorf("docs/mcp.md has no matrix markers")
	}
	s := string(b[:i+len(begin)]) + "\n" + string(table) + "\n" + string(b[j:])
	printMCPMatrix()
	return os.WriteFile(doc, []byte(s), 0o644)
}
