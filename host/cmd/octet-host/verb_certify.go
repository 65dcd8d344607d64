package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/conformance"
	"github.com/octet-kit/octet/host/internal/suggest"
)

const certifyHelp = `
Usage: octet-host certify [--json] [--check NAME]... [--calls N] [--seed S] DIR...
       octet-host certify --matrix [--json] [--jobs N] ROOT

Runs the conformance checks (docs/conformance.md) against each extension directory: every
check starts a fresh process (a fresh scratch directory, the sanitised environment),
performs the handshake itself and answers the extension's requests deterministically.
Checks that call the fixture tools run only against an extension named
conformance-fixture; the others bind every extension.

The tools.* checks call every tool the extension declares (and every tool of a dynamic
catalog once published) with arguments generated from its parameters schema: valid ones on
the schema's edges and invalid ones breaking one rule each, at most N of each per tool and
check (--calls, default 12), chosen by the seed S (--seed, default 0: the same seed gives
the same calls). The manifest's [certify] table adds example arguments per tool, or skips a
tool (skip = true, reason = "..."); a skipped tool is reported skipped, never passed. A
failed call prints its exact arguments, what came back, the frames, the last stderr lines
and the octet-host call command line that replays it.

The text report prints each check as it finishes (skipped checks folded into one line
with their counts and reasons; -v prints each), then each failure's evidence, one line
per tool and the totals. --json prints {"extension", "language", "checks": [{"name",
"status", "detail"}], "passed", "failed", "skipped", "errored", "tools": [{"name",
"status", "reason", "calls", "passed", "failed", "checks", "failure"}]} per extension (an
array for several); status is pass, fail, skip, warn (a failed advisory check, which does
not fail certification) or error (the check could not reach the state it tests: the
extension exits before it answers an ordinary initialize; it fails certification).

--matrix certifies every ROOT/{go,python,typescript}/<name> and prints one table of
checks × language fixtures and one of examples × status. A language that has examples
but no conformance-fixture fails the matrix. It certifies up to N extensions at once
(--jobs, default one per CPU; each extension's checks still run one after another) and
prints them in directory order whatever finished first.

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
	verbose := fs.Bool("v", false, "print a line for every skipped check instead of one folded line")
	matrix := fs.Bool("matrix", false, "certify every ROOT/{go,python,typescript}/* and print the matrix")
	var only multi
	var passEnv envNames
	fs.Var(&only, "check", "run only the check `NAME` (repeatable)")
	fs.Var(&passEnv, "pass-env", "grant the host variable `NAME` to extensions (repeatable)")
	timeout := fs.Duration("answer-timeout", 10*time.Second, "bound for one answer that should come promptly")
	calls := fs.Int("calls", conformance.DefaultCalls, "at most `N` generated valid and N invalid calls per tool and check")
	seed := fs.Int64("seed", 0, "seed `S` of the generated tool arguments")
	noSandbox := fs.Bool("no-sandbox", false, "certify the extensions unconfined (by default each runs in the sandbox its manifest declares)")
	jobs := fs.Int("jobs", runtime.GOMAXPROCS(0), "with --matrix, certify up to `N` extensions at once")
	faultSeed := fs.Uint64("fault-seed", 0, "seed of the framing checks' fault-injecting transport (each check notes it; the same seed replays)")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	for i, name := range only {
		if _, ok := conformance.Lookup(name); !ok {
			var names []string
			for _, c := range conformance.Checks() {
				names = append(names, c.Name)
			}
			fmt.Fprintf(stderr, "octet-host certify: unknown check %q%s (docs/conformance.md lists them)\n", name, suggest.Hint(name, names, nil))
			return exitStartup
		}
		var note string
		if only[i], note = conformance.Canonical(name); note != "" {
			fmt.Fprintf(stderr, "octet-host certify: deprecated: %s\n", note)
		}
	}
	if fs.NArg() == 0 || *matrix && fs.NArg() != 1 {
		fmt.Fprintln(stderr, "octet-host certify: want one or more extension directories, or --matrix ROOT")
		return exitStartup
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *jobs < 1 {
		fmt.Fprintln(stderr, "octet-host certify: --jobs must be at least 1")
		return exitStartup
	}
	if *calls < 1 {
		fmt.Fprintln(stderr, "octet-host certify: --calls must be at least 1")
		return exitStartup
	}
	opts := conformance.Options{Only: only, PassEnv: passEnv, AnswerTimeout: *timeout, Calls: *calls, Seed: *seed, FaultSeed: *faultSeed, NoSandbox: *noSandbox, Jobs: *jobs}
	if *matrix {
		return certifyMatrix(ctx, fs.Arg(0), opts, *asJSON, stdout)
	}
	var reports []*conformance.Report
	failed := false
	for _, dir := range fs.Args() {
		rep := certifyDir(ctx, dir, opts, !*asJSON, *verbose, stdout)
		reports = append(reports, rep)
		failed = failed || !rep.OK()
		if !*asJSON {
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
// failed report, not a usage error, so the other directories still run. With text, each
// check's line is printed as it finishes, then the failures, the tools and the totals.
func certifyDir(ctx context.Context, dir string, opts conformance.Options, text, verbose bool, stdout io.Writer) *conformance.Report {
	ext, err := conformance.LoadExtension(dir)
	if err != nil {
		rep := &conformance.Report{Extension: dir, Dir: dir, LoadError: err.Error()}
		if text {
			_ = conformance.WriteText(stdout, rep)
		}
		return rep
	}
	if !text {
		return conformance.Certify(ctx, ext, opts)
	}
	conformance.WriteHeader(stdout, &conformance.Report{Extension: ext.Manifest.Name, Language: ext.Language, Dir: ext.Dir})
	var skipped []conformance.Result
	opts.OnResult = func(r conformance.Result) {
		if r.Status == conformance.Skip && !verbose {
			skipped = append(skipped, r) // folded into one line below
			return
		}
		conformance.WriteResult(stdout, r)
	}
	rep := conformance.Certify(ctx, ext, opts)
	conformance.WriteSkipped(stdout, skipped)
	_ = conformance.WriteTail(stdout, rep)
	return rep
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
