// Command octet-mcp is the MCP bridge extension: it supervises the MCP servers its
// configuration names and publishes their tools as its live tool catalog (see
// docs/mcp.md). The host starts it from its bundle's extension.toml.
package main

import (
	"fmt"
	"os"

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
	b := bridge.New(cfg, octet.Options{})
	if path != "" {
		b.Extension().Log().Info("configuration", "path", path, "servers", len(cfg.Servers))
	}
	b.Run()
}
