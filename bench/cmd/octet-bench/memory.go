package main

import (
	"context"
	"fmt"

	"github.com/octet-kit/octet/bench/internal/measure"
	"github.com/octet-kit/octet/bench/internal/report"
	"github.com/octet-kit/octet/bench/internal/target"
)

// memory measures, per repetition, each floor's, fixture's and hello-world's extension process driven
// directly (the host's own memory is the scale table's): RSS once initialised, its growth
// over MemoryCalls echo calls, and what MemoryCalls more kept (measure.MemoryRun).
func (r *runner) memory(ctx context.Context) {
	for rep := 0; rep < r.cfg.Reps; rep++ {
		r.sampleLoad()
		idle := map[string]float64{}
		for _, t := range rotated(r.phaseTargets("memory"), rep) {
			start := t.Start
			if t.Direct != nil {
				start = t.Direct
			}
			r.logf("memory rep %d/%d %s: %d calls", rep+1, r.cfg.Reps, t.ID, r.cfg.MemoryCalls)
			run, err := r.memoryOne(ctx, start)
			if err != nil {
				r.res.Fail(t.ID, fmt.Errorf("memory rep %d: %w", rep+1, err))
				continue
			}
			r.res.Add(report.IdleRSS, t.ID, float64(run.IdleKiB))
			r.res.Add(report.RSSAfter, t.ID, float64(run.AfterKiB))
			r.res.Add(report.RSSGrowth, t.ID, float64(run.AfterKiB-run.IdleKiB))
			r.res.Add(report.RSSKept, t.ID, float64(run.SteadyKiB-run.AfterKiB))
			idle[t.ID] = float64(run.IdleKiB)
		}
		for _, t := range r.targets {
			if v, ok := idle[t.ID]; ok && t.Kind != target.Floor {
				if f, ok := idle["floor-"+t.Lang]; ok && f > 0 {
					r.res.Add(report.RSSOverFloor, t.ID, v/f)
				}
			}
		}
	}
}

func (r *runner) memoryOne(ctx context.Context, start func(context.Context) (target.Session, error)) (measure.MemoryRun, error) {
	s, err := start(ctx)
	if err != nil {
		return measure.MemoryRun{}, fmt.Errorf("start: %w", err)
	}
	defer s.Close()
	return measure.Memory(ctx, s, r.cfg.MemoryCalls)
}
