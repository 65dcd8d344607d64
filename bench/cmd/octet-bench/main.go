// Command octet-bench measures every octet SDK against its language's floor, the
// official MCP SDK of the same language and go-plugin, and writes the results as
// JSON, SVG charts and docs/benchmarks.md.
//
//	go run ./cmd/octet-bench            # full run (under 10 minutes on 2 cores)
//	go run ./cmd/octet-bench -quick     # fewer calls and repetitions, for iterating
//
// Runs are interleaved: each repetition walks every target (in a rotated order)
// before the next starts, so a load spike on the machine hits all of them alike, and
// ratios are taken within one repetition.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/octet-kit/octet/bench/internal/report"
	"github.com/octet-kit/octet/bench/internal/target"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "octet-bench:", err)
		os.Exit(1)
	}
}

func run() error {
	quick := flag.Bool("quick", false, "fewer calls and repetitions (numbers are rougher)")
	only := flag.String("only", "", "comma-separated target ids to run (default all): floor-LANG, octet-LANG (the conformance fixture), hello-LANG (the hello-world), mcp-LANG, go-plugin; LANG is go, python or typescript")
	doc := flag.String("doc", "../docs/benchmarks.md", "Markdown page to write (empty: none)")
	out := flag.String("out", "results", "directory for latest.json and the SVG charts")
	skipSetup := flag.Bool("skip-setup", false, "do not build or install the peers")
	via := flag.String("via", "host", `how octet targets are driven: "host" (the reference host library, host overhead included) or "direct" (sdk-go/jsonrpc from the harness)`)
	phases := flag.String("phases", "latency,cold,crash,memory,scale", "phases to run, comma-separated")
	extras := flag.Bool("extras", true, "in the latency phase, also run callback, artifact and cancel scenarios (off: echo only, e.g. to profile the hot path)")
	render := flag.String("render", "", "only rewrite the page and charts from this results JSON (no measuring)")
	// Overrides of the mode's counts, so one scenario can be repeated often enough for a
	// stable median on a shared machine (e.g. -only floor-python,octet-python -reps 9).
	reps := flag.Int("reps", 0, "repetitions (0: the mode's default)")
	calls := flag.Int("calls", 0, "sequential calls per repetition (0: the mode's default)")
	tputCalls := flag.Int("tput-calls", 0, "calls per throughput measurement (0: the mode's default)")
	compare := flag.String("compare", "", "extra octet targets, comma-separated LANG:ID=DIR (an extension directory, e.g. a copy of the fixture on a baseline SDK checkout), run interleaved with the others for A/B ratios")
	flag.Parse()

	bench, err := os.Getwd()
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(bench, "cmd", "octet-bench")); err != nil {
		return fmt.Errorf("run from the bench/ directory (no cmd/octet-bench in %s)", bench)
	}
	root := filepath.Dir(bench)
	if *render != "" {
		res, err := report.Load(*render)
		if err != nil {
			return err
		}
		return write(res, bench, *out, *doc, func(string, ...any) {})
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	}
	if !*skipSetup {
		if err := setup(bench, logf); err != nil {
			return fmt.Errorf("setup: %w", err)
		}
	}

	cfg := report.Config{Reps: 3, Warmup: 2000, Calls: 20000, InFlight: 32, TputCalls: 10000,
		ColdStarts: 10, CallbackN: 1000, ScaleCalls: 1000, ScaleRounds: 3, MemoryCalls: 10000}
	if *quick {
		cfg = report.Config{Quick: true, Reps: 3, Warmup: 200, Calls: 2000, InFlight: 32, TputCalls: 2000,
			ColdStarts: 5, CallbackN: 200, ScaleCalls: 1000, ScaleRounds: 1, MemoryCalls: 10000}
	}
	for _, o := range []struct {
		flag int
		into *int
	}{{*reps, &cfg.Reps}, {*calls, &cfg.Calls}, {*tputCalls, &cfg.TputCalls}} {
		if o.flag > 0 {
			*o.into = o.flag
		}
	}
	res := report.New()
	res.Config = cfg
	res.Command = commandLine()
	res.Machine = describeMachine(root)
	if *via != "host" && *via != "direct" {
		return fmt.Errorf(`-via %q: want "host" or "direct"`, *via)
	}
	targets := plan(root, bench, *via)
	if *only != "" {
		keep := map[string]bool{}
		for _, id := range strings.Split(*only, ",") {
			keep[strings.TrimSpace(id)] = true
		}
		var sel []target.Target
		for _, t := range targets {
			if keep[t.ID] {
				sel = append(sel, t)
			}
		}
		targets = sel
	}
	extra, err := compareTargets(root, *compare, *via)
	if err != nil {
		return err
	}
	targets = append(targets, extra...)
	for _, t := range targets {
		res.Targets = append(res.Targets, report.Target{ID: t.ID, Name: t.Name, Lang: t.Lang, Kind: string(t.Kind), Via: t.Via, Tools: t.Tools, Missing: t.Missing, Note: t.Note})
		if t.Missing != "" {
			logf("skip %s: %s", t.ID, t.Missing)
		}
	}
	runnable := make([]target.Target, 0, len(targets))
	for _, t := range targets {
		if t.Missing == "" {
			runnable = append(runnable, t)
		}
	}

	ctx := context.Background()
	defer target.CloseHostServices()
	if *via == "host" {
		if err := target.InitHostServices(ctx); err != nil {
			return err
		}
	}
	r := &runner{res: res, cfg: cfg, logf: logf, targets: runnable, root: root, work: filepath.Join(bench, ".work"), extras: *extras}
	for _, p := range strings.Split(*phases, ",") {
		switch strings.TrimSpace(p) {
		case "latency":
			r.latency(ctx)
		case "cold":
			r.coldStarts(ctx)
		case "crash":
			r.crashes(ctx)
		case "memory":
			r.memory(ctx)
		case "scale":
			r.scale(ctx)
		default:
			return fmt.Errorf("unknown phase %q in -phases (known: latency, cold, crash, memory, scale)", p)
		}
	}
	res.Machine.LoadAfter = loadavg()
	res.Took = time.Since(res.Started).Round(time.Second).String()
	res.Finish()
	printSummary(os.Stderr, res)

	if err := write(res, bench, *out, *doc, logf); err != nil {
		return err
	}
	logf("done in %s", res.Took)
	return nil
}

// write puts the results JSON and charts into out and the page at doc.
func write(res *report.Results, bench, out, doc string, logf func(string, ...any)) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := res.WriteJSON(filepath.Join(out, "latest.json")); err != nil {
		return err
	}
	charts, err := report.WriteCharts(res, out)
	if err != nil {
		return err
	}
	if doc == "" {
		return nil
	}
	absDoc, err1 := filepath.Abs(doc)
	absOut, err2 := filepath.Abs(out)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Dir(absDoc), absOut)
	if err != nil {
		return fmt.Errorf("charts in %s cannot be linked from %s: %w", out, doc, err)
	}
	// analysis.md is the hand-written reading of the numbers (what limits what);
	// it is kept beside the code and placed into the generated page.
	analysis, _ := os.ReadFile(filepath.Join(bench, "analysis.md"))
	if err := os.WriteFile(doc, []byte(report.Markdown(res, filepath.ToSlash(rel), charts, string(analysis))), 0o644); err != nil {
		return err
	}
	logf("wrote %s", doc)
	return nil
}

// commandLine is the exact command that reproduces the run: the mage target that
// started it (OCTET_BENCH_COMMAND, set by magefiles/bench.go), else the harness's own
// command line.
func commandLine() string {
	if c := os.Getenv("OCTET_BENCH_COMMAND"); c != "" {
		return c
	}
	return strings.TrimSpace("cd bench && go run ./cmd/octet-bench " + strings.Join(os.Args[1:], " "))
}
