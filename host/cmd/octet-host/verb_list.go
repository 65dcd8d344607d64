package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/manifest"
)

const listHelp = `
Usage: octet-host list [flags]

Lists what discovery finds under the global root (~/.octet/extensions), the trusted
project root (<workspace>/.octet/extensions) and every --extension-dir, in that precedence
(later wins by directory name), with each extension's admission state (admitted, invalid,
disabled, untrusted, safe_mode) and every diagnostic. Nothing is executed.

Exit codes: 0 listed (even with diagnostics), 2 usage or config error.

Examples:
  octet-host list
  octet-host list --trust-workspace --extension-dir ./my-extensions --enable-extension hello-world
  octet-host list --json
`

func init() {
	register("list", verb{Summary: "show discovered extensions, admission state and diagnostics", Run: runList})
}

func runList(args []string, stdout, stderr io.Writer) int {
	var hf hostFlags
	fs := flagSet("list", listHelp, stderr)
	hf.addDiscovery(fs)
	asJSON := fs.Bool("json", false, "print one JSON object")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	sel, err := hf.selectExtensions(nil, true)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host list:", err)
		return exitStartup
	}
	type row struct {
		Name     string             `json:"name"`
		Source   string             `json:"source"`
		Version  string             `json:"version,omitempty"`
		API      string             `json:"api_version,omitempty"`
		Manifest string             `json:"manifest"`
		Decision admission.Decision `json:"admission"`
		// Capabilities is what the extension asks for; Sandbox how it will run: "enforced"
		// or "off (operator opt-out)".
		Capabilities *manifest.Capabilities `json:"capabilities,omitempty"`
		Sandbox      string                 `json:"sandbox"`
	}
	var rows []row
	for _, e := range sel.result.Entries {
		r := row{Name: e.Name, Source: string(e.Source), Manifest: e.ManifestPath, Decision: sel.policy.Admit(e),
			Sandbox: sandboxLabel(hf.noSandbox, sel.config, e.Name)}
		if e.Valid() {
			r.Version, r.API = e.Manifest.Version, e.Manifest.APIVersion
			caps := e.Manifest.Capabilities
			r.Capabilities = &caps
		}
		rows = append(rows, r)
	}
	if *asJSON {
		diags := sel.result.Diagnostics
		if diags == nil {
			diags = []manifest.Diagnostic{}
		}
		if rows == nil {
			rows = []row{}
		}
		_ = json.NewEncoder(stdout).Encode(map[string]any{"workspace": sel.workspace, "workspace_trusted": sel.trusted, "extensions": rows, "diagnostics": diags})
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSOURCE\tVERSION\tAPI\tSTATE\tMANIFEST")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Source, r.Version, r.API, r.Decision.State, r.Manifest)
	}
	tw.Flush()
	for _, r := range rows {
		if r.Decision.Reason != "" && r.Decision.State != admission.Invalid {
			fmt.Fprintf(stdout, "%s: %s\n", r.Name, r.Decision.Reason)
		}
	}
	for _, r := range rows {
		if r.Capabilities != nil {
			fmt.Fprintf(stdout, "%s asks for: %s; sandbox %s\n", r.Name, r.Capabilities.Summary(), r.Sandbox)
		}
	}
	if len(sel.result.Diagnostics) > 0 {
		fmt.Fprintln(stdout, "\nDiagnostics:")
		for _, d := range sel.result.Diagnostics {
			fmt.Fprintln(stdout, "  "+d.String())
		}
	}
	return exitOK
}
