// Package measure holds the timing code every target shares: one loop for round
// trips, one for throughput, one for cold starts, and the scenario runners. Nothing
// here knows which target it is timing.
package measure

import (
	"math"
	"slices"
	"time"
)

// Percentile returns the p-th percentile (0..100) of durations by nearest rank.
// It sorts ds in place.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	rank := int(math.Ceil(p/100*float64(len(ds)))) - 1
	return ds[max(0, min(rank, len(ds)-1))]
}

// Spread is the median and range of repeated measurements of one quantity.
type Spread struct {
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	Samples []float64 `json:"samples"`
}

// Summarize returns the median, min and max of xs (the median of an even count is
// the mean of the middle two). An empty xs gives a zero Spread.
func Summarize(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Spread{Median: med, Min: s[0], Max: s[len(s)-1], Samples: xs}
}

// Micros and Millis convert a duration for reporting.
func Micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
func Millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
