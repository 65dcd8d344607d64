package report_test

import (
	"strings"
	"testing"

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
	r.NotAvailable(report.Cancel, "floor-go", "the floor has no slow tool")
	r.Finish()
	md := report.Markdown(r, "../bench/results", map[string]string{"rtt": "rtt-p50.svg"}, "## Reading these numbers\n\nby hand")
	for _, want := range []string{
		"| Go | octet SDK (Go) | host library | 37.0 (36.0–40.0) |",
		"1.20× (1.19–1.25)",
		"| p50 within 1.5× of the floor (Go 1.25×) | Go | 1.20× (1.19–1.25) | met |",
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
