package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/conformance"
)

const certifyHelp = `
Usage: octet-host certify [--json] [--check NAME]... DIR...
       octet-host certify --matrix [--json] ROOT

Runs the conformance checks (docs/conformance.md) against each extension directory: every
check starts a fresh process, performs the handshake itself and answers the extension's
requests deterministically. Checks that call the fixture tools run only against an
extension named conformance-fixture; the others bind every extension.

The report lists each check with its tier, result and duration; a failure shows what was
expected, the frames exchanged and the last lines of stderr. --json prints
{"extension", "language", "checks": [{"name", "status", "detail"}], "passed", "failed",
"skipped", "errored"} per extension (an array for several); status is pass, fail, skip,
warn (a failed advisory check, which does not fail certification) or error (the check
could not reach the state it tests: the extension exits before it answers an ordinary
initialize; it fails certification).

--matrix certifies every ROOT/{go,python,typescript}/<name> and prints one table of
checks × language fixtures and one of examples × status. A language that has examples
but no conformance-fixture fails the matrix.

Exit codes: 0 nothing failed, 1 a check failed, 2 usage error.

Examples:
  octet-host certify ./my-extension
  octet-host certify --json ./my-extension > conformance.json
  octet-host certify --matrix examples
`

func init() {
	register("certify", verb{Summary: "run the conformance checks against extensions (--matrix: every example)", Run: runCertify})
}

func runCertify(args []string, stdout, stderr io.Writer) int {
	fs := flagSet("certify", certifyHelp, stderr)
	asJSON := fs.Bool("json", false, "print JSON reports instead of text")
	matrix := fs.Bool("matrix", false, "certify every ROOT/{go,python,typescript}/* and print the matrix")
	var only multi
	var passEnv envNames
	fs.Var(&only, "check", "run only the check `NAME` (repeatable)")
	fs.Var(&passEnv, "pass-env", "grant the host variable `NAME` to extensions (repeatable)")
	timeout := fs.Duration("answer-timeout", 10*time.Second, "bound for one answer that should come promptly")
	faultSeed := fs.Uint64("fault-seed", 0, "seed of the framing checks' fault-injecting transport (each check notes it; the same seed replays)")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	for _, name := range only {
		if _, ok := conformance.Lookup(name); !ok {
			fmt.Fprintf(stderr, "octet-host certify: unknown check %q; see docs/conformance.md for the list\n", name)
			return exitStartup
		}
	}
	if fs.NArg() == 0 || *matrix && fs.NArg() != 1 {
		fmt.Fprintln(stderr, "octet-host certify: want one or more extension directories, or --matrix ROOT")
		return exitStartup
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := conformance.Options{Only: only, PassEnv: passEnv, AnswerTimeout: *timeout, FaultSeed: *faultSeed}
	if *matrix {
		return certifyMatrix(ctx, fs.Arg(0), opts, *asJSON, stdout)
	}
	var reports []*conformance.Report
	failed := false
	for _, dir := range fs.Args() {
		rep := certifyDir(ctx, dir, opts)
		reports = append(reports, rep)
		failed = failed || !rep.OK()
		if !*asJSON {
			_ = conformance.WriteText(stdout, rep)
			fmt.Fprintln(stdout)
		}
	}
	if *asJSON {
		if err := conformance.WriteJSON(stdout, reports); err != nil {
			fmt.Fprintln(stderr, "octet-host certify:", err)
			return exitStartup
		}
	}
	if failed {
		return exitFailed
	}
	return exitOK
}

// certifyDir loads and certifies one directory; a manifest that does not load is a
// failed report, not a usage error, so the other directories still run.
func certifyDir(ctx context.Context, dir string, opts conformance.Options) *conformance.Report {
	ext, err := conformance.LoadExtension(dir)
	if err != nil {
		return &conformance.Report{Extension: dir, Dir: dir, LoadError: err.Error()}
	}
	return conformance.Certify(ctx, ext, opts)
}

func certifyMatrix(ctx context.Context, root string, opts conformance.Options, asJSON bool, stdout io.Writer) int {
	var progress io.Writer = stdout
	if asJSON {
		progress = nil
	}
	m := conformance.RunMatrix(ctx, root, opts, progress)
	if asJSON {
		var all []*conformance.Report
		for _, lang := range conformance.Languages {
			if r := m.Fixtures[lang]; r != nil {
				all = append(all, r)
			}
		}
		all = append(all, m.Examples...)
		_ = conformance.WriteJSONArray(stdout, all)
	} else {
		fmt.Fprintln(stdout, strings.Repeat("=", 72))
		_ = conformance.WriteMatrix(stdout, m)
	}
	if len(m.Problems()) > 0 {
		return exitFailed
	}
	return exitOK
}
