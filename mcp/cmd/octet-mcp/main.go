// Command octet-mcp is the MCP bridge extension: it supervises the MCP servers its
// configuration names and publishes their tools as its live tool catalog (see
// docs/mcp.md). The host starts it from its bundle's extension.toml.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/octet-kit/octet/mcp/bridge"
	octet "github.com/octet-kit/octet/sdk-go"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println("octet-mcp", bridge.Version)
		return
	}
	cfg, path, err := bridge.LoadConfig()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if os.Getenv("GOGC") == "" {
		// Every forwarded call leaves about 130 KB of garbage in a live heap of a few MB,
		// almost all of it the MCP Go SDK's JSON decoders (four per call, each with a
		// fresh 32 KB buffer). At the default GOGC=100 the collector then takes half of
		// the bridge's CPU; 400 cuts the bridge's CPU per call by about a third, for a
		// heap goal of five times the live heap (docs/mcp.md, Benchmarks).
		debug.SetGCPercent(400)
	}
	b := bridge.New(cfg, octet.Options{})
	profile(b)
	if path != "" {
		b.Extension().Log().Info("configuration", "path", path, "servers", len(cfg.Servers))
	}
	b.Run()
}
