// Command octet-host is the reference host's command line: validate manifests, call tools
// of one extension, run and supervise several, list what discovery finds, inspect recorded
// sessions. Its output and exit codes are a stable interface CI scripts rely on.
//
// Each verb lives in its own file (verb_<name>.go) and registers itself in init, so new
// verbs are added without touching the others.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/internal/suggest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// verb is one sub-command.
type verb struct {
	// Summary is the one-line description shown by `octet-host help`.
	Summary string
	// Run executes the verb with the arguments after its name and returns the exit code.
	Run func(args []string, stdout, stderr io.Writer) int
}

// verbs is the registry; each verb_*.go file adds itself in init.
var verbs = map[string]verb{}

func register(name string, v verb) {
	if _, dup := verbs[name]; dup {
		panic("octet-host: verb registered twice: " + name)
	}
	verbs[name] = v
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// Exit codes shared by every verb.
const (
	exitOK      = 0 // success
	exitFailed  = 1 // a check or a tool failed
	exitStartup = 2 // usage error, or the extension could not start or was refused
)

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) > 1 {
			if v, ok := verbs[args[1]]; ok {
				return v.Run([]string{"--help"}, stdout, stderr)
			}
		}
		usage(stdout)
		if len(args) == 0 {
			return exitStartup
		}
		return exitOK
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		printVersion(stdout)
		return exitOK
	}
	v, ok := verbs[args[0]]
	if !ok {
		names := make([]string, 0, len(verbs))
		for n := range verbs {
			names = append(names, n)
		}
		sort.Strings(names)
		if hint := suggest.Hint(args[0], names, nil); hint != "" {
			fmt.Fprintf(stderr, "octet-host: unknown verb %q%s (octet-host help lists the verbs)\n", args[0], hint)
			return exitStartup
		}
		fmt.Fprintf(stderr, "octet-host: unknown verb %q\n\n", args[0])
		usage(stderr)
		return exitStartup
	}
	return v.Run(args[1:], stdout, stderr)
}

// printVersion prints the kit's one version (the VERSION file, stamped into host.OctetVersion
// and every package) and the newest wire API version this host speaks.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "octet-host %s (octet API %s; %s %s/%s)\n", host.OctetVersion, protocol.ApiVersion04, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "octet-host: the octet reference host")
	fmt.Fprintln(w, "\nUsage: octet-host VERB [flags] [args]   (flags may follow the arguments; -- ends them)\n       octet-host --version\n\nVerbs:")
	names := make([]string, 0, len(verbs))
	for n := range verbs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, verbs[n].Summary)
	}
	fmt.Fprintln(w, "\nRun 'octet-host VERB --help' for a verb's flags and examples. See docs/host.md.")
}
