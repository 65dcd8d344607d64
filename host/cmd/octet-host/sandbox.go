package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/manifest"
)

// unconfined is the operator's opt-out of the sandbox: --no-sandbox, sandbox = "off" in the
// host config, or sandbox = "off" in the extension's [extensions.NAME] table.
func unconfined(noSandbox bool, cfg admission.Config) func(string) bool {
	return func(name string) bool {
		if noSandbox || cfg.Sandbox == "off" {
			return true
		}
		return cfg.Extensions[name].Sandbox == "off"
	}
}

// sandboxLabel is how list and status show an extension's confinement.
func sandboxLabel(noSandbox bool, cfg admission.Config, name string) string {
	if unconfined(noSandbox, cfg)(name) {
		return "off (operator opt-out)"
	}
	return "enforced"
}

// printAsks shows what an installed bundle asks for, for the operator's consent.
func printAsks(w io.Writer, dir string) {
	m, diags := manifest.Load(filepath.Join(dir, manifest.FileName), manifest.Options{})
	if len(diags) == 0 {
		fmt.Fprintf(w, "  asks for: %s\n", m.Capabilities.Summary())
	}
}
