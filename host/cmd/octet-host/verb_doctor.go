package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/store"
)

const doctorHelp = `
Usage: octet-host doctor [--json] [flags] [DIR]...

Checks this machine and configuration offline (no extension is started): the manifests
discovery finds (and the DIRs named), the operator's settings against each manifest's
settings schema, the permissions of the state directory, its database and the config file,
the runtimes extensions need (Go 1.26, Python 3.11, Node 20), the kernel features the
sandbox uses (Landlock and its ABI, unprivileged user namespaces, seccomp), and the state
store's integrity (PRAGMA integrity_check, read-only). Every finding names what and where,
and how to fix it.

Exit codes: 0 no errors (warnings allowed), 1 at least one error, 2 usage error.

Examples:
  octet-host doctor
  octet-host doctor --json --workspace . ./my-ext
`

func init() {
	register("doctor", verb{Summary: "check manifests, settings, permissions, runtimes, kernel and store offline", Run: runDoctor})
}

// finding is one doctor result.
type finding struct {
	Check    string `json:"check"`    // manifest, settings, permissions, runtime, kernel, store
	Severity string `json:"severity"` // ok, warning, error
	Subject  string `json:"subject"`
	Message  string `json:"message"`
	Fix      string `json:"fix,omitempty"`
}

func runDoctor(args []string, stdout, stderr io.Writer) int {
	var hf hostFlags
	fs := flagSet("doctor", doctorHelp, stderr)
	hf.addState(fs)
	hf.addDiscovery(fs)
	asJSON := fs.Bool("json", false, "print the findings as one JSON object")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	var out []finding
	add := func(f finding) { out = append(out, f) }
	doctorConfig(&hf, fs.Args(), add)
	doctorPermissions(hf.stateDir, hf.configPath, add)
	for _, r := range runtimes {
		add(doctorRuntime(r))
	}
	for _, f := range kernelFindings() {
		add(f)
	}
	add(doctorStore(hf.stateDir))
	code := exitOK
	for _, f := range out {
		if f.Severity == "error" {
			code = exitFailed
		}
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(map[string]any{"ok": code == exitOK, "findings": out})
		return code
	}
	for _, f := range out {
		fmt.Fprintf(stdout, "%-7s %-11s %s: %s\n", f.Severity, f.Check, f.Subject, f.Message)
		if f.Fix != "" && f.Severity != "ok" {
			fmt.Fprintf(stdout, "        fix: %s\n", f.Fix)
		}
	}
	return code
}

// doctorConfig loads the config and discovers the extensions, then checks every manifest
// and every extension's settings with the host's own checks.
func doctorConfig(hf *hostFlags, dirs []string, add func(finding)) {
	sel, err := hf.selectExtensions(dirs, true)
	if err != nil {
		add(finding{Check: "manifest", Severity: "error", Subject: hf.configPath, Message: err.Error(), Fix: "correct the config file (docs/host.md, Config file)"})
		return
	}
	for _, d := range sel.result.Diagnostics {
		add(finding{Check: "manifest", Severity: "error", Subject: d.File, Message: d.String(), Fix: "correct the manifest; octet-host validate DIR shows every problem"})
	}
	seen := map[string]bool{}
	for _, e := range sel.result.Entries {
		if !e.Valid() {
			continue
		}
		seen[e.Name] = true
		if _, err := host.CheckSettings(e.Manifest, sel.settings[e.Name]); err != nil {
			add(finding{Check: "settings", Severity: "error", Subject: e.Name, Message: err.Error(), Fix: "correct [extensions." + e.Name + ".settings] in the host or workspace config"})
			continue
		}
		add(finding{Check: "manifest", Severity: "ok", Subject: e.Name, Message: e.ManifestPath + " is valid, settings too"})
	}
	for name := range sel.settings {
		if !seen[name] {
			add(finding{Check: "settings", Severity: "warning", Subject: name, Message: "settings are set for an extension discovery does not find", Fix: "remove [extensions." + name + ".settings] or install the extension"})
		}
	}
}

// doctorPermissions: the state directory and database are the user's alone (they hold KV
// values and recordings); the config file grants trust, so nobody else may write it.
func doctorPermissions(stateDir, configPath string, add func(finding)) {
	check := func(path string, forbidden os.FileMode, what, fix string) {
		fi, err := os.Stat(path)
		if os.IsNotExist(err) {
			return
		}
		if err != nil {
			add(finding{Check: "permissions", Severity: "error", Subject: path, Message: err.Error(), Fix: fix})
			return
		}
		if m := fi.Mode().Perm(); m&forbidden != 0 {
			add(finding{Check: "permissions", Severity: "error", Subject: path, Message: fmt.Sprintf("mode %04o lets %s", m, what), Fix: fix})
			return
		}
		add(finding{Check: "permissions", Severity: "ok", Subject: path, Message: fmt.Sprintf("mode %04o", fi.Mode().Perm())})
	}
	check(stateDir, 0o077, "other users read the state directory", "chmod 700 "+stateDir)
	check(filepath.Join(stateDir, store.DatabaseFile), 0o077, "other users read the state database", "chmod 600 "+filepath.Join(stateDir, store.DatabaseFile))
	check(configPath, 0o022, "other users change the host config (and grant trust)", "chmod go-w "+configPath)
}

// langRuntime is a language runtime extensions need.
type langRuntime struct {
	name, command string
	args          []string
	minMajor      int
	minMinor      int
	fix           string
}

var runtimes = []langRuntime{
	{"Go", "go", []string{"version"}, 1, 26, "install Go 1.26 or newer (https://go.dev/dl/)"},
	{"Python", "python3", []string{"--version"}, 3, 11, "install Python 3.11 or newer"},
	{"Node", "node", []string{"--version"}, 20, 0, "install Node 20 or newer"},
}

var versionRE = regexp.MustCompile(`(\d+)\.(\d+)`)

func doctorRuntime(r langRuntime) finding {
	subject := r.name + " (" + r.command + ")"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b, err := exec.CommandContext(ctx, r.command, r.args...).Output()
	if err != nil {
		return finding{Check: "runtime", Severity: "warning", Subject: subject, Message: "not usable: " + err.Error() + "; extensions in this language cannot start", Fix: r.fix}
	}
	line := strings.TrimSpace(string(b))
	m := versionRE.FindStringSubmatch(line)
	if m == nil {
		return finding{Check: "runtime", Severity: "warning", Subject: subject, Message: fmt.Sprintf("no version in %q", line), Fix: r.fix}
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	if major < r.minMajor || (major == r.minMajor && minor < r.minMinor) {
		return finding{Check: "runtime", Severity: "warning", Subject: subject, Message: fmt.Sprintf("%s is older than %d.%d", line, r.minMajor, r.minMinor), Fix: r.fix}
	}
	return finding{Check: "runtime", Severity: "ok", Subject: subject, Message: line}
}

// doctorStore runs the read-only integrity check of the state database.
func doctorStore(stateDir string) finding {
	subject := filepath.Join(stateDir, store.DatabaseFile)
	in, err := store.CheckIntegrity(context.Background(), stateDir)
	switch {
	case err != nil:
		return finding{Check: "store", Severity: "error", Subject: subject, Message: err.Error(), Fix: "move the state directory aside (it is recreated empty) or restore it from a backup"}
	case !in.Exists:
		return finding{Check: "store", Severity: "ok", Subject: subject, Message: "no database yet (created on first use)"}
	case len(in.Problems) > 0:
		return finding{Check: "store", Severity: "error", Subject: subject, Message: "integrity_check: " + strings.Join(in.Problems, "; "), Fix: "move the state directory aside (it is recreated empty) or restore it from a backup"}
	case in.SchemaVersion > store.SchemaVersion():
		return finding{Check: "store", Severity: "error", Subject: subject, Message: fmt.Sprintf("schema version %d is newer than this host's %d", in.SchemaVersion, store.SchemaVersion()), Fix: "use the newer octet-host that wrote it, or another --state"}
	}
	return finding{Check: "store", Severity: "ok", Subject: subject, Message: fmt.Sprintf("integrity ok, schema version %d", in.SchemaVersion)}
}
