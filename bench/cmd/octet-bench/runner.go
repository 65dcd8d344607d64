package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/octet-kit/octet/bench/internal/measure"
	"github.com/octet-kit/octet/bench/internal/report"
	"github.com/octet-kit/octet/bench/internal/target"
)

type runner struct {
	res     *report.Results
	cfg     report.Config
	logf    func(string, ...any)
	targets []target.Target
	root    string
	work    string
	extras  bool
}

// phaseTargets are the targets phase measures. The hello-world examples have one tool,
// hello_world, so they leave out the latency phase (its callback, artifact and cancel
// scenarios need the fixture's tools, and the round trips are the fixture's against the
// floor's) and the crash phase (no crash tool); the memory, cold-start and scale phases
// measure them beside the fixture, since those targets compare a one-tool extension with
// the one-tool floor. Memory and scale measure only octet extensions (floors included).
func (r *runner) phaseTargets(phase string) []target.Target {
	var ts []target.Target
	for _, t := range r.targets {
		octet := t.Kind == target.SDK || t.Kind == target.Hello || t.Kind == target.Floor
		switch {
		case (phase == "latency" || phase == "crash") && t.Kind == target.Hello:
		case (phase == "memory" || phase == "scale") && !octet:
		default:
			ts = append(ts, t)
		}
	}
	return ts
}

// rotated returns the targets starting at offset i, so each repetition starts with
// a different one and no target always runs first (or last) after a pause.
func rotated(ts []target.Target, i int) []target.Target {
	if len(ts) == 0 {
		return nil
	}
	i %= len(ts)
	return append(append([]target.Target{}, ts[i:]...), ts[:i]...)
}

const (
	artifactBig    = 16 << 20
	artifactInline = 256 << 10
	cancelsPerRep  = 5
)

// latency runs, per repetition and per target on one fresh session: sequential
// round trips, throughput with 32 in flight, then callback, artifact and cancel
// scenarios where the target has them.
func (r *runner) latency(ctx context.Context) {
	for rep := 0; rep < r.cfg.Reps; rep++ {
		r.sampleLoad()
		p50 := map[string]float64{}
		tput := map[string]float64{}
		p50d := map[string]float64{}
		tputd := map[string]float64{}
		for _, t := range rotated(r.phaseTargets("latency"), rep) {
			r.logf("rep %d/%d %s: %d calls", rep+1, r.cfg.Reps, t.ID, r.cfg.Calls)
			if err := r.latencyOne(ctx, t, p50, tput); err != nil {
				r.logf("  %s: %v", t.ID, err)
				r.res.Fail(t.ID, fmt.Errorf("rep %d: %w", rep+1, err))
			}
			if t.Direct == nil {
				continue
			}
			r.logf("rep %d/%d %s direct: %d calls", rep+1, r.cfg.Reps, t.ID, r.cfg.Calls)
			if err := r.directOne(ctx, t, p50d, tputd); err != nil {
				r.logf("  %s: %v", t.ID, err)
				r.res.Fail(t.ID, fmt.Errorf("rep %d: %w", rep+1, err))
			}
		}
		r.ratios(p50, tput)
		r.directRatios(p50, tput, p50d, tputd)
	}
	for _, t := range r.phaseTargets("latency") {
		switch t.Kind {
		case target.Floor:
			r.res.NotAvailable(report.Cancel, t.ID, "the floor has no slow tool")
			r.res.NotAvailable(report.Artifact16, t.ID, "the floor has no publish tool")
		case target.MCP, target.GoPlugin:
			r.res.NotAvailable(report.Cancel, t.ID, "its client stops waiting at once; the handler side is not observable")
			r.res.NotAvailable(report.Callback, t.ID, "no equivalent host callback in this peer")
			r.res.NotAvailable(report.Artifact16, t.ID, "no artifact service")
		}
	}
}

func (r *runner) latencyOne(ctx context.Context, t target.Target, p50, tput map[string]float64) error {
	s, err := t.Start(ctx)
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	defer s.Close()
	lat, err := measure.RoundTrip(ctx, s, r.cfg.Warmup, r.cfg.Calls)
	if err != nil {
		return fmt.Errorf("round trip: %w", err)
	}
	r.res.Add(report.RTTP50, t.ID, measure.Micros(lat.P50))
	r.res.Add(report.RTTP99, t.ID, measure.Micros(lat.P99))
	p50[t.ID] = measure.Micros(lat.P50)
	cps, err := measure.Throughput(ctx, s, r.cfg.InFlight, r.cfg.TputCalls)
	if err != nil {
		return fmt.Errorf("throughput: %w", err)
	}
	r.res.Add(report.Throughput, t.ID, cps)
	tput[t.ID] = cps
	if !r.extras {
		return nil
	}
	var errs []error
	if cb, ok := s.(target.Callbacker); ok {
		start := time.Now()
		if err := cb.CallbackN(ctx, r.cfg.CallbackN); err != nil {
			errs = append(errs, fmt.Errorf("callback_n: %w", err))
		} else {
			r.res.Add(report.Callback, t.ID, measure.Micros(time.Since(start))/float64(r.cfg.CallbackN))
		}
	}
	if pub, ok := s.(target.Publisher); ok && t.Kind == target.SDK {
		if err := r.artifacts(ctx, t, pub); err != nil {
			errs = append(errs, err)
		}
	}
	if c, ok := s.(target.Canceller); ok && t.Kind == target.SDK {
		for i := 0; i < cancelsPerRep; i++ {
			d, err := c.CancelLatency(ctx)
			if err != nil {
				errs = append(errs, fmt.Errorf("cancel: %w", err))
				break
			}
			r.res.Add(report.Cancel, t.ID, measure.Micros(d))
		}
	}
	return errors.Join(errs...)
}

// artifacts publishes 16 MiB by path and 256 KiB inline through the session, so the
// host's artifact service verifies size and SHA-256 and stores the bytes. A refusal is
// an error of the run, never measured some other way.
func (r *runner) artifacts(ctx context.Context, t target.Target, pub target.Publisher) error {
	big, inline, err := warmPublishPair(ctx, pub)
	if err != nil {
		return fmt.Errorf("artifact (%s): %w", t.ID, err)
	}
	r.res.Add(report.Artifact16, t.ID, float64(artifactBig)/(1<<20)/big.Seconds())
	r.res.Add(report.Inline256, t.ID, measure.Millis(inline))
	return nil
}

// warmPublishPair publishes once untimed, then times a second pair: the first 16 MiB
// a process allocates pays for growing its heap, which is not the artifact path.
func warmPublishPair(ctx context.Context, pub target.Publisher) (big, inline time.Duration, err error) {
	if _, _, err := publishPair(ctx, pub); err != nil {
		return 0, 0, err
	}
	return publishPair(ctx, pub)
}

func publishPair(ctx context.Context, pub target.Publisher) (big, inline time.Duration, err error) {
	start := time.Now()
	if err := pub.Publish(ctx, artifactBig, "path"); err != nil {
		return 0, 0, fmt.Errorf("publish 16 MiB by path: %w", err)
	}
	big = time.Since(start)
	start = time.Now()
	if err := pub.Publish(ctx, artifactInline, "inline"); err != nil {
		return 0, 0, fmt.Errorf("publish 256 KiB inline: %w", err)
	}
	return big, time.Since(start), nil
}

func oneLine(err error) string {
	s := strings.ReplaceAll(err.Error(), "\n", " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// ratios records this repetition's ratios: each target's p50 over its language's
// floor, MCP's p50 over ours, and our calls/s as a fraction of the floor's.
func (r *runner) ratios(p50, tput map[string]float64) {
	for _, t := range r.targets {
		floor, ok := p50["floor-"+t.Lang]
		if v, mine := p50[t.ID]; mine && ok && t.Kind != target.Floor {
			r.res.Add(report.RatioFloor, t.ID, v/floor)
		}
		if v, mine := p50[t.ID]; mine && t.Kind == target.SDK {
			if m, ok := p50["mcp-"+t.Lang]; ok {
				r.res.Add(report.RatioMCP, t.ID, m/v)
			}
		}
		if v, mine := tput[t.ID]; mine && t.Kind != target.Floor {
			if f, ok := tput["floor-"+t.Lang]; ok {
				r.res.Add(report.ThroughFrac, t.ID, v/f)
			}
		}
	}
}

// coldStarts interleaves bare starts and every target's start-to-ready; a target driven
// through the host is also started directly (ColdStartDirect), the extension's own start
// without the host's, which is what "a Go extension starts within +3 ms of an empty Go
// binary" compares.
func (r *runner) coldStarts(ctx context.Context) {
	bare := bareStarts(r.root, r.work)
	samples := map[string][]float64{}
	for i := 0; i < r.cfg.ColdStarts; i++ {
		r.sampleLoad()
		r.logf("cold starts, round %d/%d", i+1, r.cfg.ColdStarts)
		for _, lang := range langs {
			d, err := measure.BareStart(bare[lang], target.BaseEnv())
			if err != nil {
				r.res.Fail("bare-"+lang, err)
				continue
			}
			samples[lang] = append(samples[lang], measure.Millis(d))
		}
		for _, t := range rotated(r.phaseTargets("cold"), i) {
			starts := []coldVia{{report.ColdStart, t.Start, "cold start"}}
			if t.Direct != nil {
				// The second start of a pair runs on a CPU the first has just warmed:
				// alternate which goes first, so neither figure always gets the warm one.
				starts = append(starts, coldVia{report.ColdStartDirect, t.Direct, "cold start driven directly"})
				if i%2 == 1 {
					starts[0], starts[1] = starts[1], starts[0]
				}
			}
			for _, v := range starts {
				d, err := measure.ColdStart(ctx, v.start)
				if err != nil {
					r.res.Fail(t.ID, fmt.Errorf("%s: %w", v.what, err))
					break
				}
				r.res.Add(v.metric, t.ID, measure.Millis(d))
			}
		}
	}
	for lang, xs := range samples {
		r.res.Bare[lang] = measure.Summarize(xs)
	}
}

// crashes times crash detection on a fresh session per sample (start untimed).
func (r *runner) crashes(ctx context.Context) {
	n := max(3, r.cfg.ColdStarts/2)
	for i := 0; i < n; i++ {
		r.logf("crash detection, round %d/%d", i+1, n)
		for _, t := range rotated(r.phaseTargets("crash"), i) {
			s, err := t.Start(ctx)
			if err != nil {
				r.res.Fail(t.ID, fmt.Errorf("crash: start: %w", err))
				continue
			}
			c, ok := s.(target.Crasher)
			if !ok {
				s.Close()
				r.res.NotAvailable(report.Crash, t.ID, "no crash tool")
				continue
			}
			// Warm the connection so the crash call is not the first one.
			if err := s.Echo(ctx); err != nil {
				r.res.Fail(t.ID, fmt.Errorf("crash: first call: %w", err))
				s.Close()
				continue
			}
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			d, err := c.Crash(cctx)
			cancel()
			s.Close()
			if err != nil {
				r.res.Fail(t.ID, fmt.Errorf("crash: %w", err))
				continue
			}
			r.res.Add(report.Crash, t.ID, measure.Millis(d))
		}
	}
}

// sampleLoad records the 1-minute load average, so the page can say how busy the
// machine was while the numbers were taken.
func (r *runner) sampleLoad() {
	var one float64
	if _, err := fmt.Sscanf(loadavg(), "%f", &one); err == nil {
		r.res.Machine.LoadSeen = append(r.res.Machine.LoadSeen, one)
	}
}

// scaleSizes are how many extensions start at once.
var scaleSizes = []int{1, 10, 50, 200}

// scale starts 1, 10, 50 and 200 of each octet target (floors, fixtures, hello-worlds) at once.
func (r *runner) scale(ctx context.Context) {
	for round := 0; round < r.cfg.ScaleRounds; round++ {
		r.sampleLoad()
		for _, t := range rotated(r.phaseTargets("scale"), round) {
			for _, n := range scaleSizes {
				r.logf("scale round %d/%d %s: %d at once", round+1, r.cfg.ScaleRounds, t.ID, n)
				run, err := measure.Scale(ctx, t, n, r.cfg.ScaleCalls)
				if err != nil {
					r.res.Fail(t.ID, fmt.Errorf("scale %d: %w", n, err))
					continue
				}
				if r.res.Scale[t.ID] == nil {
					r.res.Scale[t.ID] = map[int][]measure.ScaleRun{}
				}
				r.res.Scale[t.ID][n] = append(r.res.Scale[t.ID][n], run)
			}
		}
	}
}

// coldVia is one way a cold-start round starts a target: the metric it records, the
// start, and the words for its failure.
type coldVia struct {
	metric string
	start  func(ctx context.Context) (target.Session, error)
	what   string
}
