package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/octet-kit/octet/host/bundle"
	"github.com/octet-kit/octet/host/internal/suggest"
)

const bundleHelp = `
Usage: octet-host bundle install|update|remove|list [--root DIR] [args]

Manages extension bundles: local .tar.gz (or .tar) archives holding one directory named
for the extension, installed into the global extension root (~/.octet/extensions, the
root 'list' and 'run' discover first). The host writes install.json into each bundle it
installs; only such managed bundles are updated or removed.

Installing never enables, trusts or starts the extension and never runs its code: enable
it afterwards with --enable-extension NAME or enabled_extensions in the config.

Exit codes: 0 done, 1 refused (the message names the entry and the rule), 2 usage error.

Examples:
  octet-host bundle install ./my-extension-0.1.0.tar.gz
  octet-host bundle update ./my-extension-0.2.0.tar.gz
  octet-host bundle list --json
  octet-host bundle remove my-extension
`

// bundleVerbs are the sub-verbs: their usage line, description and run.
var bundleVerbs = map[string]struct {
	usage, about string
	run          func(m *bundle.Manager, arg string, asJSON bool, stdout io.Writer) error
}{
	"install": {"ARCHIVE", `
Validates ARCHIVE completely (paths, entry types, sizes, one root named for the extension,
extension.toml with API 0.2 or 0.4 and requires_octet = "=<this host's octet version>"),
then publishes it as DIR/NAME/ by one atomic rename and records install.json. Refused when
DIR/NAME already exists (use update).`, runBundleInstall},
	"update": {"ARCHIVE", `
Replaces the managed bundle named by ARCHIVE's root directory. The candidate is validated
completely before the installed bundle is touched; if publishing fails the installed bundle
is moved back unchanged.`, runBundleUpdate},
	"remove": {"NAME", `
Deletes the managed bundle DIR/NAME/ (it must hold a valid install.json) and its durable
state in the --state directory (its OCTET_EXTENSION_STATE directory and its KV entries);
config stays. Unpackaged extensions are refused.`, runBundleRemove},
	"list": {"", `
Lists the managed bundles in DIR (directories holding install.json) with their recorded
version, API, octet pin, install time and source. --json prints {root, bundles}.`, runBundleList},
}

var bundleExamples = map[string]string{
	"install": "  octet-host bundle install ./my-extension-0.1.0.tar.gz\n  octet-host bundle install --root /tmp/exts ./my-extension-0.1.0.tar",
	"update":  "  octet-host bundle update ./my-extension-0.2.0.tar.gz",
	"remove":  "  octet-host bundle remove my-extension\n  octet-host bundle remove --root /tmp/exts my-extension",
	"list":    "  octet-host bundle list\n  octet-host bundle list --json",
}

func init() {
	register("bundle", verb{Summary: "install, update, remove or list local-archive extension bundles", Run: runBundle})
}

func runBundle(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "octet-host bundle: want install, update, remove or list")
		fmt.Fprintln(stderr, strings.TrimSpace(bundleHelp))
		return exitStartup
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, strings.TrimSpace(bundleHelp))
		return exitOK
	}
	sub, ok := bundleVerbs[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "octet-host bundle: unknown sub-verb %q%s (want install, update, remove or list)\n", args[0], suggest.Hint(args[0], []string{"install", "update", "remove", "list"}, nil))
		return exitStartup
	}
	name := args[0]
	usage := "Usage: octet-host bundle " + name + " [--root DIR]"
	if name == "list" {
		usage += " [--json]"
	}
	if name == "remove" {
		usage += " [--state DIR]"
	}
	if sub.usage != "" {
		usage += " " + sub.usage
	}
	fs := flagSet("bundle "+name, usage+"\n"+sub.about+"\n\nExit codes: 0 done, 1 refused, 2 usage error.\n\nExamples:\n"+bundleExamples[name], stderr)
	root := fs.String("root", defaultGlobalRoot(), "extension root `DIR` the bundles live in")
	var asJSON, accept bool
	var stateDir *string
	if name == "remove" {
		stateDir = fs.String("state", defaultStateDir(), "host state `DIR` whose durable state of the extension goes too")
	}
	if name == "list" {
		fs.BoolVar(&asJSON, "json", false, "print one JSON object")
	}
	if name == "update" {
		fs.BoolVar(&accept, "accept-permissions", false, "consent to an update whose [capabilities] ask for more than the installed version")
	}
	if code := parse(fs, args[1:], stdout); code >= 0 {
		return code
	}
	switch {
	case sub.usage != "" && fs.NArg() != 1:
		fmt.Fprintf(stderr, "octet-host bundle %s: want exactly one %s\n", name, sub.usage)
		return exitStartup
	case sub.usage == "" && fs.NArg() != 0:
		fmt.Fprintf(stderr, "octet-host bundle %s: takes no arguments\n", name)
		return exitStartup
	}
	identity := bundleIdentity(*root, fs.Arg(0))
	mgr := bundle.New(*root)
	mgr.AcceptPermissions = accept
	if err := sub.run(mgr, fs.Arg(0), asJSON, stdout); err != nil {
		fmt.Fprintf(stderr, "octet-host bundle %s: %v\n", name, err)
		return exitFailed
	}
	if stateDir != nil {
		if err := removeDurableState(*stateDir, fs.Arg(0), identity, stdout); err != nil {
			fmt.Fprintf(stderr, "octet-host bundle %s: the bundle is removed, but not its state: %v\n", name, err)
			return exitFailed
		}
	}
	return exitOK
}

func runBundleInstall(m *bundle.Manager, arg string, _ bool, stdout io.Writer) error {
	rec, err := m.Install(arg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed %s %s (API %s) in %s\n  sha256 %s\n", rec.ID, rec.Version, rec.APIVersion, m.Root, rec.SHA256)
	printAsks(stdout, filepath.Join(m.Root, rec.ID))
	fmt.Fprintf(stdout, "not enabled, trusted or started: enable it with --enable-extension %s or enabled_extensions in the config\n", rec.ID)
	return nil
}

func runBundleUpdate(m *bundle.Manager, arg string, _ bool, stdout io.Writer) error {
	rec, err := m.Update(arg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "updated %s to %s (API %s) in %s\n  sha256 %s\n", rec.ID, rec.Version, rec.APIVersion, m.Root, rec.SHA256)
	printAsks(stdout, filepath.Join(m.Root, rec.ID))
	return nil
}

func runBundleRemove(m *bundle.Manager, arg string, _ bool, stdout io.Writer) error {
	rec, err := m.Remove(arg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "removed %s %s from %s\n", rec.ID, rec.Version, m.Root)
	return nil
}

func runBundleList(m *bundle.Manager, _ string, asJSON bool, stdout io.Writer) error {
	list, err := m.List()
	if err != nil {
		return err
	}
	if asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"root": m.Root, "bundles": list})
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tAPI\tOCTET\tINSTALLED\tSOURCE")
	for _, l := range list {
		if r := l.Record; r != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Name, r.Version, r.APIVersion, r.RequiresOctet, r.InstalledAt, r.Source)
		}
	}
	tw.Flush()
	for _, l := range list {
		if l.Problem != "" {
			fmt.Fprintf(stdout, "%s: %s\n", l.Name, l.Problem)
		}
	}
	return nil
}
