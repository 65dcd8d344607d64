package measure_test

import (
	"testing"
	"time"

	"github.com/octet-kit/octet/bench/internal/measure"
)

func TestPercentileNearestRank(t *testing.T) {
	ds := make([]time.Duration, 100)
	for i := range ds {
		ds[i] = time.Duration(100-i) * time.Microsecond // reversed: Percentile must sort
	}
	if got := measure.Percentile(ds, 50); got != 50*time.Microsecond {
		t.Errorf("p50 = %v, want 50µs", got)
	}
	if got := measure.Percentile(ds, 99); got != 99*time.Microsecond {
		t.Errorf("p99 = %v, want 99µs", got)
	}
	if got := measure.Percentile(nil, 50); got != 0 {
		t.Errorf("p50 of nothing = %v, want 0", got)
	}
}

func TestSummarize(t *testing.T) {
	s := measure.Summarize([]float64{3, 1, 2, 10})
	if s.Median != 2.5 || s.Min != 1 || s.Max != 10 {
		t.Errorf("Summarize = %+v, want median 2.5, min 1, max 10", s)
	}
	if s.Samples[0] != 3 {
		t.Errorf("Summarize reordered the caller's samples: %v", s.Samples)
	}
	if odd := measure.Summarize([]float64{5, 1, 9}); odd.Median != 5 {
		t.Errorf("median of 5,1,9 = %v, want 5", odd.Median)
	}
}
