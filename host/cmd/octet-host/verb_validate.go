package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/manifest"
)

const validateHelp = `
Usage: octet-host validate [--json] [--config FILE] [--workspace DIR] PATH

Validates one extension manifest strictly and offline (nothing is executed). PATH is an
extension directory or its extension.toml. Every problem is printed as
"file: field: message [rule]"; the directory name must equal the manifest name.
When the manifest declares settings, the operator's values ([extensions.NAME.settings] of
the host config, and of DIR/.octet/config.toml over it when --workspace is given) are
checked against them exactly as the host checks them before a start.

Exit codes: 0 valid, 1 invalid, 2 usage error.

Examples:
  octet-host validate examples/go/hello-world
  octet-host validate --json ./my-ext/extension.toml
`

func init() {
	register("validate", verb{Summary: "check an extension.toml strictly and offline", Run: runValidate})
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("validate", validateHelp, stderr)
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	configPath := fs.String("config", filepath.Join(defaultOctetHome(), "config.toml"), "host config `FILE` whose [extensions.NAME.settings] are checked")
	workspace := fs.String("workspace", "", "workspace `DIR` whose .octet/config.toml settings apply over the host config's")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "octet-host validate: want exactly one PATH (an extension directory or its extension.toml)")
		return exitStartup
	}
	path := fs.Arg(0)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, manifest.FileName)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	m, diags := manifest.Load(path, manifest.Options{OctetVersion: host.OctetVersion})
	if m != nil {
		if dir := filepath.Base(filepath.Dir(path)); dir != m.Name {
			diags = append(diags, manifest.Diagnostic{File: path, Field: "name", Rule: manifest.RuleDirectoryName,
				Message: fmt.Sprintf("manifest name %q differs from its directory name %q; rename one so they match", m.Name, dir)})
		}
	}
	if m != nil && len(diags) == 0 {
		diags = append(diags, settingsDiagnostics(m, *configPath, *workspace)...)
	}
	if *asJSON {
		out := map[string]any{"file": path, "valid": len(diags) == 0, "diagnostics": diags}
		if diags == nil {
			out["diagnostics"] = []manifest.Diagnostic{}
		}
		if len(diags) == 0 {
			out["name"], out["version"], out["api_version"] = m.Name, m.Version, m.APIVersion
		}
		_ = json.NewEncoder(stdout).Encode(out)
	} else if len(diags) == 0 {
		fmt.Fprintf(stdout, "ok: %s %s (API %s) %s\n", m.Name, m.Version, m.APIVersion, path)
	} else {
		for _, d := range diags {
			fmt.Fprintln(stdout, d.String())
		}
	}
	if len(diags) > 0 {
		return exitFailed
	}
	return exitOK
}

// settingsDiagnostics checks the operator's settings for m offline, with the host's own
// check (host.CheckSettings): defaults applied, the schema's verdict, secret names.
func settingsDiagnostics(m *manifest.Manifest, configPath, workspace string) []manifest.Diagnostic {
	user, err := admission.LoadConfig(configPath)
	if err != nil {
		return []manifest.Diagnostic{{File: configPath, Rule: "config", Message: err.Error()}}
	}
	var proj admission.Config
	if workspace != "" {
		p := admission.ProjectConfigPath(workspace)
		if proj, _, err = admission.LoadProjectConfig(p); err != nil {
			return []manifest.Diagnostic{{File: p, Rule: "config", Message: err.Error()}}
		}
	}
	if _, err := host.CheckSettings(m, admission.MergeSettings(user, proj)[m.Name]); err != nil {
		return []manifest.Diagnostic{{File: configPath, Field: "extensions." + m.Name + ".settings", Rule: manifest.RuleSettings, Message: err.Error()}}
	}
	return nil
}
