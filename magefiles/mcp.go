//go:build mage

package main

import (
	"os"
	"path/filepath"
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
	if newer(reqs, done) {
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
