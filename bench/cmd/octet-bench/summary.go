package main

import (
	"fmt"
	"io"

	"github.com/octet-kit/octet/bench/internal/report"
)

// printSummary writes the latency phase's medians, one line per target: the p50 round trip,
// calls/s with 32 in flight and, for non-floor targets, both as ratios to the language's
// floor taken within each repetition (the only steady figures on a shared machine).
func printSummary(w io.Writer, res *report.Results) {
	if _, ok := res.Metrics[report.RTTP50]; !ok {
		return
	}
	fmt.Fprintf(w, "\n%-22s %10s %12s %14s %14s\n", "target", "p50 µs", "calls/s", "p50 ÷ floor", "calls/s÷floor")
	for _, t := range res.Targets {
		p50, ok := res.Get(report.RTTP50, t.ID)
		if !ok {
			continue
		}
		cps, _ := res.Get(report.Throughput, t.ID)
		ratio, frac := "–", "–"
		if s, ok := res.Get(report.RatioFloor, t.ID); ok {
			ratio = fmt.Sprintf("%.2f× (%.2f–%.2f)", s.Median, s.Min, s.Max)
		}
		if s, ok := res.Get(report.ThroughFrac, t.ID); ok {
			frac = fmt.Sprintf("%.0f%% (%.0f–%.0f)", 100*s.Median, 100*s.Min, 100*s.Max)
		}
		fmt.Fprintf(w, "%-22s %10.1f %12.0f %14s %14s\n", t.ID, p50.Median, cps.Median, ratio, frac)
	}
	fmt.Fprintf(w, "(medians over %d repetitions; ratios taken within each)\n", len(mustSamples(res)))
}

func mustSamples(res *report.Results) []float64 {
	for _, byID := range res.Metrics[report.RTTP50] {
		return byID.Samples
	}
	return nil
}
