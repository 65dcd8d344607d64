package measure

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/octet-kit/octet/bench/internal/target"
)

// ScaleRun is one "start n extensions at once" run.
type ScaleRun struct {
	N            int           `json:"n"`
	Ready        time.Duration `json:"ready_ns"`      // start of the first spawn to the last initialised
	HostRSS      int64         `json:"host_rss_kib"`  // the harness (acting as host) after all are ready
	ChildRSS     int64         `json:"child_rss_kib"` // sum over the extension processes
	Calls        int           `json:"calls"`
	CallsTook    time.Duration `json:"calls_ns"` // 1,000 concurrent calls spread over the n
	CallP50      time.Duration `json:"call_p50_ns"`
	CallP99      time.Duration `json:"call_p99_ns"`
	CallsPerSecs float64       `json:"calls_per_s"`
	// OneCallP50 is the median of OneCalls sequential calls to the first extension
	// after the concurrent ones, while all n stay connected: what one caller sees
	// of a busy host (the same figure at n = 1 is its baseline).
	OneCalls   int           `json:"one_calls"`
	OneCallP50 time.Duration `json:"one_call_p50_ns"`
}

// oneCalls is how many sequential calls OneCallP50 is taken over.
const oneCalls = 300

// Scale starts n sessions of t at once, then makes calls concurrent echo calls
// spread round-robin over them, then closes them all.
func Scale(ctx context.Context, t target.Target, n, calls int) (ScaleRun, error) {
	run := ScaleRun{N: n, Calls: calls}
	start := time.Now()
	sessions, closeAll, err := startAll(ctx, t, n)
	run.Ready = time.Since(start)
	if err != nil {
		return run, err
	}
	defer closeAll()
	run.HostRSS = rssKiB(os.Getpid())
	for _, s := range sessions {
		run.ChildRSS += rssKiB(s.PID())
	}
	ds := make([]time.Duration, calls)
	callErrs := make(chan error, calls)
	var wg sync.WaitGroup
	start = time.Now()
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			if err := sessions[i%n].Echo(ctx); err != nil {
				callErrs <- err
			}
			ds[i] = time.Since(t0)
		}()
	}
	wg.Wait()
	run.CallsTook = time.Since(start)
	select {
	case err := <-callErrs:
		return run, fmt.Errorf("%d concurrent calls over %d extensions: %w", calls, n, err)
	default:
	}
	run.CallP50 = Percentile(ds, 50)
	run.CallP99 = Percentile(ds, 99)
	run.CallsPerSecs = float64(calls) / run.CallsTook.Seconds()
	one, err := RoundTrip(ctx, sessions[0], 0, oneCalls)
	if err != nil {
		return run, fmt.Errorf("sequential calls to one of %d extensions: %w", n, err)
	}
	run.OneCalls, run.OneCallP50 = oneCalls, one.P50
	return run, nil
}

// rssKiB reads VmRSS of a process from /proc (0 when unknown).
func rssKiB(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			v, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return v
		}
	}
	return 0
}

// startAll starts n extensions at once: in one host when the target can, else as n
// concurrent Starts.
func startAll(ctx context.Context, t target.Target, n int) ([]target.Session, func(), error) {
	if t.StartGroup != nil {
		return t.StartGroup(ctx, n)
	}
	sessions := make([]target.Session, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sessions[i], errs[i] = t.Start(ctx)
		}()
	}
	wg.Wait()
	closeAll := func() {
		var cw sync.WaitGroup
		for _, s := range sessions {
			if s != nil {
				cw.Add(1)
				go func() { defer cw.Done(); s.Close() }()
			}
		}
		cw.Wait()
	}
	for i, err := range errs {
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("extension %d of %d: %w", i+1, n, err)
		}
	}
	return sessions, closeAll, nil
}
