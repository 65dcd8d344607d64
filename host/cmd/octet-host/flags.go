package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/internal/suggest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/host/services"
)

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// envNames is a repeatable flag of environment variable names, each checked when given.
type envNames []string

func (m *envNames) String() string { return strings.Join(*m, ",") }
func (m *envNames) Set(v string) error {
	if err := process.CheckEnvName(v); err != nil {
		return err
	}
	*m = append(*m, v)
	return nil
}

// hostFlags are the flags shared by verbs that discover, admit and start extensions.
type hostFlags struct {
	// wire, when set, adds taps to the reference host's options last, just before it
	// opens (the dev inspector's frame log, event stream and Asker).
	wire optionsHook

	stateDir       string
	globalDir      string
	configPath     string
	workspace      string
	trustWorkspace bool
	extensionDirs  multi
	enable         multi
	trust          multi
	passEnv        envNames
	required       multi
	safeMode       bool
	fullAccess     bool
	noSandbox      bool
	script         string
	timeout        time.Duration
	trace          bool
	record         bool
	model          string
	ask            string
	// asker, when set by the verb, answers what the script leaves open (--ask).
	asker services.Asker
}

// flagSet builds a verb's flag set whose --help prints text (usage, flags, examples).
func flagSet(name, text string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), strings.TrimSpace(text))
		fmt.Fprintln(fs.Output(), "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; it returns (-1) to continue, or the exit code for --help and errors.
//
// Flags may come anywhere on the line (`call DIR hello '{}' --trace`), as users of most
// CLIs expect: the standard flag package stops at the first positional argument, so
// parsing resumes after each one. `--` ends the flags; everything after it is positional
// (a tool literally named "--trace" is `call DIR -- --trace`).
//
// A parse error is one line on the verb's output (an unknown flag with the nearest known
// one), not the whole help, which --help prints.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) int {
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	var positional []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			fs.SetOutput(out)
			if err == flag.ErrHelp {
				usage()
				return exitOK
			}
			fmt.Fprintln(out, flagError(fs, err))
			return exitStartup
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		// fs.Parse stopped at a positional argument or consumed a "--" terminator; the
		// terminator is gone from rest only when it was the argument it stopped at.
		if terminated(args, rest) {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
	// Parse once more past a terminator so that fs.Args() holds exactly the positionals.
	if err := fs.Parse(append([]string{"--"}, positional...)); err != nil {
		return exitStartup
	}
	return -1
}

// flagError is the one line for a flag the verb refused: an unknown flag names the nearest
// known one when there is a close one.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
		msg = "unknown flag --" + name + suggest.Hint(name, known, func(s string) string { return "--" + s })
	}
	return fmt.Sprintf("octet-host %s: %s (octet-host %s --help lists the flags)", fs.Name(), msg, fs.Name())
}

// terminated reports whether the flag parser stopped because of a "--" (rest is what
// follows it in args) rather than at a positional argument.
func terminated(args, rest []string) bool {
	i := len(args) - len(rest)
	return i > 0 && args[i-1] == "--"
}

func defaultStateDir() string {
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "octet-host")
	}
	return filepath.Join(os.TempDir(), "octet-host")
}

// defaultGlobalRoot is the host's global extension root, which discovery searches first and
// bundles are installed in.
func defaultGlobalRoot() string { return filepath.Join(defaultOctetHome(), "extensions") }

func defaultOctetHome() string {
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".octet")
	}
	return ".octet"
}

// addState adds --state.
func (h *hostFlags) addState(fs *flag.FlagSet) {
	fs.StringVar(&h.stateDir, "state", defaultStateDir(), "state directory: SQLite store, stderr logs, scratch dirs")
}

// addRun adds the flags of verbs that start extensions.
func (h *hostFlags) addRun(fs *flag.FlagSet) {
	h.addState(fs)
	fs.StringVar(&h.workspace, "workspace", "", "workspace root: the extensions' cwd and OCTET_WORKSPACE (default: the current directory)")
	fs.Var(&h.passEnv, "pass-env", "grant the host variable `NAME` to extensions (repeatable)")
	fs.StringVar(&h.script, "script", "", "script `FILE` answering confirmations, input, policy, secrets and child sessions")
	fs.StringVar(&h.ask, "ask", askAuto, "put confirmations and input the script does not answer to the user: `auto` (when stdin is a terminal), stdin (always, answers read from stdin) or never")
	fs.DurationVar(&h.timeout, "timeout", 30*time.Second, "per-request timeout")
	fs.BoolVar(&h.trace, "trace", false, "print every frame to stderr")
	fs.BoolVar(&h.record, "record", false, "record every frame (secrets redacted) in the state store for 'inspect'")
	fs.BoolVar(&h.safeMode, "safe-mode", false, "never start executable extensions, whatever the grants")
	fs.BoolVar(&h.noSandbox, "no-sandbox", false, "run every extension unconfined (no namespaces, Landlock, seccomp or budgets); list and status show it")
	fs.StringVar(&h.model, "model", "", "session model `PROVIDER/ID` sent in initialize (e.g. anthropic/claude-sonnet)")
	fs.StringVar(&h.configPath, "config", filepath.Join(defaultOctetHome(), "config.toml"), "host config `FILE` (enabled_extensions, trusted_extensions, trusted_workspaces, pass_env)")
}

// addDiscovery adds the flags that select and admit extensions.
func (h *hostFlags) addDiscovery(fs *flag.FlagSet) {
	fs.StringVar(&h.globalDir, "global-dir", defaultGlobalRoot(), "global extension root")
	if fs.Lookup("workspace") == nil {
		fs.StringVar(&h.workspace, "workspace", "", "workspace root (default: the current directory)")
	}
	if fs.Lookup("config") == nil {
		fs.StringVar(&h.configPath, "config", filepath.Join(defaultOctetHome(), "config.toml"), "host config `FILE`")
	}
	if fs.Lookup("safe-mode") == nil {
		fs.BoolVar(&h.safeMode, "safe-mode", false, "never start executable extensions")
	}
	fs.BoolVar(&h.trustWorkspace, "trust-workspace", false, "trust the workspace for this run: its .octet/extensions root is discovered")
	fs.Var(&h.extensionDirs, "extension-dir", "explicit extension root, or one extension's directory (repeatable; later wins)")
	fs.Var(&h.enable, "enable-extension", "enable `NAME` for this run (repeatable)")
	fs.Var(&h.trust, "trust-extension", "trust the selected `NAME` for this run only (repeatable)")
	fs.Var(&h.required, "require", "extension `NAME` whose failure stops startup (repeatable)")
	if fs.Lookup("no-sandbox") == nil {
		fs.BoolVar(&h.noSandbox, "no-sandbox", false, "run every extension unconfined (no namespaces, Landlock, seccomp or budgets); list and status show it")
	}
	fs.BoolVar(&h.fullAccess, "full-access", false, "implicitly trust every enabled extension (use only inside OS-level isolation)")
}
