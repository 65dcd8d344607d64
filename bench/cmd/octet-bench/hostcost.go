package main

import (
	"context"
	"fmt"

	"github.com/octet-kit/octet/bench/internal/measure"
	"github.com/octet-kit/octet/bench/internal/report"
	"github.com/octet-kit/octet/bench/internal/target"
)

// directOne measures a host-driven target a second time in the same repetition, driven
// directly over sdk-go/jsonrpc from the harness (the same extension directory and
// environment, a fresh process): the figure without the host. Ratios between the two are
// taken per repetition, so a load spike on the shared machine hits both alike.
func (r *runner) directOne(ctx context.Context, t target.Target, p50, tput map[string]float64) error {
	s, err := t.Direct(ctx)
	if err != nil {
		return fmt.Errorf("direct start: %w", err)
	}
	defer s.Close()
	lat, err := measure.RoundTrip(ctx, s, r.cfg.Warmup, r.cfg.Calls)
	if err != nil {
		return fmt.Errorf("direct round trip: %w", err)
	}
	r.res.Add(report.RTTP50Direct, t.ID, measure.Micros(lat.P50))
	p50[t.ID] = measure.Micros(lat.P50)
	cps, err := measure.Throughput(ctx, s, r.cfg.InFlight, r.cfg.TputCalls)
	if err != nil {
		return fmt.Errorf("direct throughput: %w", err)
	}
	r.res.Add(report.ThroughputDirect, t.ID, cps)
	tput[t.ID] = cps
	return nil
}

// directRatios records this repetition's host ÷ direct of every target measured both
// ways, and each SDK's direct figures against its language's floor driven directly.
func (r *runner) directRatios(hostP50, hostTput, p50, tput map[string]float64) {
	for _, t := range r.targets {
		d, ok := p50[t.ID]
		if !ok {
			continue
		}
		if h, ok := hostP50[t.ID]; ok {
			r.res.Add(report.HostOverDirect, t.ID, h/d)
		}
		if h, ok := hostTput[t.ID]; ok && tput[t.ID] > 0 {
			r.res.Add(report.HostTputOfDirect, t.ID, h/tput[t.ID])
		}
		if t.Kind == target.Floor {
			continue
		}
		if f, ok := p50["floor-"+t.Lang]; ok {
			r.res.Add(report.DirectOverFloor, t.ID, d/f)
		}
		if f, ok := tput["floor-"+t.Lang]; ok && f > 0 {
			r.res.Add(report.DirectTputFrac, t.ID, tput[t.ID]/f)
		}
	}
}
