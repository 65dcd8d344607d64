package report_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/bench/internal/measure"
	"github.com/octet-kit/octet/bench/internal/report"
)

// A run with a floor, an SDK and a missing target renders every section, the
// same-repetition ratio, the goal verdicts and the n/a reasons.
func TestMarkdownRendersRatiosGoalsAndGaps(t *testing.T) {
	r := report.New()
	r.Targets = []report.Target{
		{ID: "floor-go", Name: "floor (Go)", Lang: "go", Kind: "floor", Via: "host library"},
		{ID: "octet-go", Name: "octet SDK (Go)", Lang: "go", Kind: "octet", Via: "host library"},
		{ID: "octet-python", Name: "octet SDK (Python)", Lang: "python", Kind: "octet", Missing: "not built"},
	}
	for _, v := range []float64{30, 32, 31} {
		r.Add(report.RTTP50, "floor-go", v)
	}
	for _, v := range []float64{36, 40, 37} {
		r.Add(report.RTTP50, "octet-go", v)
	}
	for _, v := range []float64{1.2, 1.25, 1.19} {
		r.Add(report.RatioFloor, "octet-go", v)
	}
	for _, v := range []float64{1.2, 1.3, 1.1} {
		r.Add(report.DirectOverFloor, "octet-go", v)
	}
	for _, v := range []float64{20, 22, 21} {
		r.Add(report.RTTP50Direct, "floor-go", v)
	}
	for _, v := range []float64{1.5, 1.45, 1.48} {
		r.Add(report.HostOverDirect, "floor-go", v)
	}
	for _, v := range []float64{9000, 9500} {
		r.Add(report.IdleRSS, "octet-go", v)
	}
	for _, v := range []float64{3000, 3100} {
		r.Add(report.RSSGrowth, "octet-go", v)
	}
	for _, v := range []float64{200, 1300} {
		r.Add(report.RSSKept, "octet-go", v)
	}
	r.NotAvailable(report.Cancel, "floor-go", "the floor has no slow tool")
	r.Finish()
	md := report.Markdown(r, "../bench/results", map[string]string{"rtt": "rtt-p50.svg"}, "## Reading these numbers\n\nby hand")
	for _, want := range []string{
		"| Go | octet SDK (Go) | host library | 37.0 (36.0–40.0) |",
		"1.20× (1.19–1.25)",
		"| SDK p50 driven directly within 1.25× (Go), 1.5× (Python, TS) of its floor driven directly (conformance fixture) | Go | 1.20× (1.10–1.30) | met in the median |",
		"| the floor through the host within 1.25× of the floor driven directly (p50) | Go | 1.48× (1.45–1.50) | **not met** |",
		"| Go | floor (Go) | 21.0 (20.0–22.0) | 31.0 (30.0–32.0) | 1.48× (1.45–1.50) |",
		"| Go | octet SDK (Go) | 9.03 (8.79–9.28) | – | 2.98 (2.93–3.03) | 0.73 (0.20–1.27) |",
		// Judged on the hello-world, which this run lacks: the fixture's figure is information.
		"| RSS grows ≤1 MiB over 10,000 calls once warm (kept; hello-world example) | Go | fixture: 0.73 (0.20–1.27) MiB (not judged) | n/a: not measured |",
		"n/a: not built",
		"n/a: the floor has no slow tool",
		"![p50 round trip](../bench/results/rtt-p50.svg)",
		"by hand",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// The hello-world is left out of the latency and scenario tables (it runs in neither), its
// cold start shows through the host and driven directly, and a note shared with the Go
// fixture is written once, naming both.
func TestMarkdownHelloWorldRows(t *testing.T) {
	r := report.New()
	note := "started as the binary built once by setup"
	r.Targets = []report.Target{
		{ID: "floor-go", Name: "floor (Go)", Lang: "go", Kind: "floor", Via: "host library"},
		{ID: "octet-go", Name: "octet SDK conformance-fixture, 27 tools (Go)", Lang: "go", Kind: "octet", Via: "host library", Tools: 27, Note: note},
		{ID: "hello-go", Name: "octet SDK hello-world, 1 tool (Go)", Lang: "go", Kind: "hello", Via: "host library", Tools: 1, Note: note},
	}
	r.Bare["go"] = measure.Summarize([]float64{2})
	r.Add(report.ColdStart, "hello-go", 10)
	r.Add(report.ColdStartDirect, "hello-go", 4.5)
	r.Add(report.RTTP50, "octet-go", 40)
	r.Finish()
	md := report.Markdown(r, "", nil, "")
	for _, want := range []string{
		"| Go | octet SDK hello-world, 1 tool (Go) | 10.0 | +8.00 ms | 4.50 | +2.50 ms |",
		"| Go | bare start (`empty Go binary`) | 2.00 | – | – | – |",
		"\noctet SDK conformance-fixture, 27 tools (Go) and octet SDK hello-world, 1 tool (Go): " + note + ".\n",
		"| Go | octet SDK conformance-fixture, 27 tools (Go) | host library | 40.0 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, unwanted := range []string{
		"| Go | octet SDK hello-world, 1 tool (Go) | host library |", // latency table
		"| Go | octet SDK hello-world, 1 tool (Go) | – | – |",        // callback/artifact table
	} {
		if strings.Contains(md, unwanted) {
			t.Errorf("page has %q", unwanted)
		}
	}
}
