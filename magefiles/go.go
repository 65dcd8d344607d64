//go:build mage

package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/magefile/mage/mg"
)

// goModules are the project's Go modules tested and vetted here: the root (host, schema,
// codegen, examples), the Go SDK, a module of its own so that an extension's go.mod
// never pulls the host's dependencies, and mcp/ (octet-mcp and octet-mcp-gateway), so
// neither the host nor the SDK takes the MCP SDK dependency. bench/ has its own targets.
var goModules = []string{".", "sdk-go", "mcp"}

// TestGo runs every Go module's tests, then the transport, SDK and host core again under
// the race detector (the conformance suite and CLI are exercised by Demo instead). The
// mcp module's tests need the MCP servers McpServers installs and the kit's Python venv
// and TypeScript build (the gateway serves Python and TypeScript examples); here they
// fail, never skip, when one is missing.
func TestGo() error {
	mg.Deps(McpServers, PythonEnv, BuildTypeScript)
	for _, dir := range goModules {
		var env []string
		if dir == "mcp" {
			env = []string{"OCTET_MCP_SERVERS=required", "OCTET_MCP_MATRIX=" + filepath.Join(root(), mcpMatrixFile)}
		}
		if err := run(dir, env, "go", "test", "-count=1", "./..."); err != nil {
			return err
		}
		if dir == "mcp" {
			printMCPMatrix()
		}
	}
	if err := run("sdk-go", nil, "go", "test", "-count=1", "-race", "./..."); err != nil {
		return err
	}
	// The build targets' own tests (the phase summary's counting) carry the mage tag.
	if err := run(".", nil, "go", "test", "-count=1", "-tags", "mage", "./magefiles/"); err != nil {
		return err
	}
	return run(".", nil, "go", "test", "-count=1", "-race", "./host", "./host/services/...", "./host/store/...")
}

// LintGo fails on unformatted files and go vet findings.
func LintGo() error {
	out, err := output(".", "gofmt", "-l", ".")
	if err != nil {
		return err
	}
	if s := strings.TrimSpace(out); s != "" {
		return fmt.Errorf("gofmt: these files need formatting:\n%s", s)
	}
	for _, dir := range goModules {
		if err := run(dir, nil, "go", "vet", "./..."); err != nil {
			return err
		}
	}
	return nil
}

// BenchGo runs the Go transport and SDK benchmarks: echo over real pipes against the
// hand-written floor, nested callbacks, and the artifact round trip.
func BenchGo() error {
	return run("sdk-go", nil, "go", "test", "-run", "^$", "-bench", ".", "-benchtime", "3000x", "-count", "1",
		"./jsonrpc", ".")
}
