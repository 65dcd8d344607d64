package report

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/bench/internal/measure"
)

// bar is one row of a chart: the median as a bar, min–max as a whisker.
type bar struct {
	label string
	lang  string
	s     measure.Spread
}

var bareLabel = map[string]string{"go": "empty Go binary", "python": "python -c pass", "typescript": "node -e 0"}

var langColour = map[string]string{"go": "#00add8", "python": "#3572a5", "typescript": "#b8860b"}

// WriteCharts writes one SVG per table into dir and returns table key -> file name.
func WriteCharts(r *Results, dir string) (map[string]string, error) {
	charts := map[string]string{}
	write := func(key, file, title, unit string, bars []bar) error {
		if len(bars) == 0 {
			return nil
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(barChart(title, unit, bars)), 0o644); err != nil {
			return err
		}
		charts[key] = file
		return nil
	}
	var rtt, cold, tput []bar
	for _, lang := range []string{"go", "python", "typescript"} {
		if s, ok := r.Bare[lang]; ok {
			cold = append(cold, bar{bareLabel[lang], lang, s})
		}
		for _, t := range r.Targets {
			if t.Lang != lang {
				continue
			}
			if s, ok := r.Get(RTTP50, t.ID); ok {
				rtt = append(rtt, bar{t.Name, lang, s})
			}
			if s, ok := r.Get(ColdStart, t.ID); ok {
				cold = append(cold, bar{t.Name, lang, s})
			}
			if s, ok := r.Get(Throughput, t.ID); ok {
				tput = append(tput, bar{t.Name, lang, s})
			}
		}
	}
	if err := write("rtt", "rtt-p50.svg", "Echo round trip p50 (µs, lower is better)", "µs", rtt); err != nil {
		return nil, err
	}
	if err := write("tput", "throughput-32.svg", "Echo calls/s with 32 in flight (higher is better)", "/s", tput); err != nil {
		return nil, err
	}
	if err := write("cold", "cold-start.svg", "Cold start to initialised (ms, lower is better)", "ms", cold); err != nil {
		return nil, err
	}
	return charts, nil
}

// barChart draws horizontal bars on a linear axis from zero, with whiskers.
func barChart(title, unit string, bars []bar) string {
	const (
		labelW = 190
		plotW  = 460
		rowH   = 22
		top    = 34
		right  = 90
	)
	hi := 0.0
	for _, b := range bars {
		hi = max(hi, b.s.Max, b.s.Median)
	}
	if hi <= 0 {
		hi = 1
	}
	x := func(v float64) float64 { return labelW + v/hi*plotW }
	h := top + rowH*len(bars) + 10
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", labelW+plotW+right, h)
	fmt.Fprintf(&sb, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&sb, `<text x="8" y="18" font-size="14" font-weight="bold">%s</text>`+"\n", html.EscapeString(title))
	for i, b := range bars {
		y := top + i*rowH
		fmt.Fprintf(&sb, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", labelW-6, y+14, html.EscapeString(b.label))
		fmt.Fprintf(&sb, `<rect x="%d" y="%d" width="%.1f" height="14" fill="%s"/>`+"\n", labelW, y+3, x(b.s.Median)-labelW, langColour[b.lang])
		if b.s.Max > b.s.Min {
			fmt.Fprintf(&sb, `<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="black"/>`+"\n", x(b.s.Min), x(b.s.Max), y+10, y+10)
		}
		fmt.Fprintf(&sb, `<text x="%.1f" y="%d">%s %s</text>`+"\n", x(max(b.s.Median, b.s.Max))+4, y+14, num(b.s.Median), unit)
	}
	sb.WriteString("</svg>\n")
	return sb.String()
}
