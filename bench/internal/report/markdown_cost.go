package report

import (
	"fmt"
	"strings"
)

// hostCost renders the same-run table of every target driven both ways: directly over
// sdk-go/jsonrpc from the harness and through the reference host library.
func hostCost(b *strings.Builder, r *Results) {
	if !anyMeasured(r, RTTP50Direct) {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("\n## The host's cost and the SDKs' own cost\n\n")
	w("Each target driven through the host is driven again in the same repetition directly over\n")
	w("`sdk-go/jsonrpc` from the harness (a fresh process of the same extension directory).\n")
	w("`host ÷ direct` is what the reference host adds to a call; `direct ÷ floor` is the SDK's own\n")
	w("cost with no host in the way. Ratios are taken within a repetition.\n\n")
	w("| lang | target | direct p50 µs | host p50 µs | host ÷ direct | direct calls/s | host calls/s | host of direct | direct ÷ floor | direct calls/s of floor |\n")
	w("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, t := range r.Targets {
		if _, ok := r.Get(RTTP50Direct, t.ID); !ok {
			continue
		}
		w("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", langTitle[t.Lang], t.Name,
			cell(r, RTTP50Direct, t.ID, spread), cell(r, RTTP50, t.ID, spread), cell(r, HostOverDirect, t.ID, ratio),
			cell(r, ThroughputDirect, t.ID, spread), cell(r, Throughput, t.ID, spread), cell(r, HostTputOfDirect, t.ID, percent),
			cell(r, DirectOverFloor, t.ID, ratio), cell(r, DirectTputFrac, t.ID, percent))
	}
}

// memoryTable renders each floor's and SDK's process memory.
func memoryTable(b *strings.Builder, r *Results) {
	if !anyMeasured(r, IdleRSS) {
		return
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w("\n## Memory of one extension\n\n")
	w("The extension process driven directly: resident set once initialised (idle) and after %d echo calls\n", r.Config.MemoryCalls)
	w("(after); *growth* is after − idle, and *kept* is what %d calls more added once the heap had reached its\n", r.Config.MemoryCalls)
	w("working size (a leak of k bytes a call shows there as %d·k). In a garbage-collected runtime the first\n", r.Config.MemoryCalls)
	w("window's growth is mostly the heap growing to its collector's target, which the floor of the same\n")
	w("language pays as well; compare it with the floor's row. `÷ floor` is the SDK's idle RSS over its\n")
	w("language's floor in the same repetition.\n\n")
	w("| lang | target | idle RSS MiB | after calls MiB | growth MiB | kept MiB | idle ÷ floor |\n|---|---|---|---|---|---|---|\n")
	mib := func(metric, id string) string {
		s, ok := r.Get(metric, id)
		if !ok {
			return "–"
		}
		return kib(s)
	}
	for _, t := range r.Targets {
		if _, ok := r.Get(IdleRSS, t.ID); !ok {
			continue
		}
		w("| %s | %s | %s | %s | %s | %s | %s |\n", langTitle[t.Lang], t.Name,
			strings.TrimSuffix(mib(IdleRSS, t.ID), " MiB"), strings.TrimSuffix(mib(RSSAfter, t.ID), " MiB"),
			strings.TrimSuffix(mib(RSSGrowth, t.ID), " MiB"), strings.TrimSuffix(mib(RSSKept, t.ID), " MiB"),
			cell(r, RSSOverFloor, t.ID, ratio))
	}
}

// anyMeasured reports whether some target has samples of metric (a table without rows is
// left out of the page).
func anyMeasured(r *Results, metric string) bool {
	for _, t := range r.Targets {
		if _, ok := r.Get(metric, t.ID); ok {
			return true
		}
	}
	return false
}
