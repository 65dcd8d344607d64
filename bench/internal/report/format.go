package report

import (
	"fmt"
	"math"

	"github.com/octet-kit/octet/bench/internal/measure"
)

// num formats a value with precision suited to its size.
func num(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// spread formats "median (min–max)".
func spread(s measure.Spread) string {
	if len(s.Samples) == 1 {
		return num(s.Median)
	}
	return fmt.Sprintf("%s (%s–%s)", num(s.Median), num(s.Min), num(s.Max))
}

// ratio formats a same-run ratio "1.23× (1.10–1.40)".
func ratio(s measure.Spread) string {
	if len(s.Samples) == 1 {
		return fmt.Sprintf("%.2f×", s.Median)
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", s.Median, s.Min, s.Max)
}

func percent(s measure.Spread) string {
	if len(s.Samples) == 1 {
		return fmt.Sprintf("%.0f%%", 100*s.Median)
	}
	return fmt.Sprintf("%.0f%% (%.0f–%.0f)", 100*s.Median, 100*s.Min, 100*s.Max)
}
