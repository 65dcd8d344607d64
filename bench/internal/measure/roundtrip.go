package measure

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/octet-kit/octet/bench/internal/target"
)

// Latency is one run's sequential round-trip distribution.
type Latency struct {
	P50, P99 time.Duration
}

// RoundTrip makes warmup untimed echo calls, then n sequential timed ones.
func RoundTrip(ctx context.Context, s target.Session, warmup, n int) (Latency, error) {
	for i := 0; i < warmup; i++ {
		if err := s.Echo(ctx); err != nil {
			return Latency{}, fmt.Errorf("warm-up call %d: %w", i+1, err)
		}
	}
	ds := make([]time.Duration, n)
	for i := range ds {
		start := time.Now()
		if err := s.Echo(ctx); err != nil {
			return Latency{}, fmt.Errorf("call %d: %w", i+1, err)
		}
		ds[i] = time.Since(start)
	}
	p50 := Percentile(ds, 50)
	return Latency{P50: p50, P99: Percentile(ds, 99)}, nil
}

// Throughput keeps inflight echo calls outstanding until total have completed and
// returns completed calls per second.
func Throughput(ctx context.Context, s target.Session, inflight, total int) (float64, error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, inflight)
	start := time.Now()
	for w := 0; w < inflight; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(total) {
				if err := s.Echo(ctx); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	select {
	case err := <-errs:
		return 0, fmt.Errorf("with %d in flight: %w", inflight, err)
	default:
	}
	return float64(total) / took.Seconds(), nil
}
