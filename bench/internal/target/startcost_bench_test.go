package target

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/metrics"
	"testing"
)

// The host's own share of a cold start and of a stop: the Go floor (one tool) and the Go
// conformance fixture (27 tools) each started through the reference host to ready, then
// closed, one at a time. The extension's CPU is never in these figures: getrusage
// RUSAGE_SELF counts this process only (the host library and the harness), and the
// heap metrics count this process's allocations. start-* is spawn to ready, stop-* is
// host Close (the shutdown request, the exit and the family scans). Profile with
//
//	go test ./internal/target -run X -bench HostStartCost/fixture -cpuprofile /tmp/start.prof -memprofile /tmp/start.mem
func BenchmarkHostStartCost(b *testing.B) {
	for _, c := range []struct {
		name string
		dir  func(*testing.B) string
	}{{"floor", floorGoDir}, {"fixture", goFixtureDir}} {
		b.Run(c.name, func(b *testing.B) {
			dir := c.dir(b)
			benchStartStop(b, 1, func(ctx context.Context) (func() error, error) {
				g, err := StartHost(ctx, []string{dir}, nil)
				if err != nil {
					return nil, err
				}
				return g.Close, nil
			})
		})
	}
}

// goFixtureDir builds the Go conformance fixture and rebinds its manifest to the binary.
func goFixtureDir(b *testing.B) string {
	return reboundGoBuild(b, filepath.Join("examples", "go", "conformance-fixture"), "")
}

// hostCost sums this process's CPU and heap allocations over one phase of every op.
type hostCost struct {
	cpuNs, bytes, objects float64
}

type costSample struct {
	cpuNs          int64
	bytes, objects uint64
}

var costMetrics = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/allocs:objects"}}

func readCost() costSample {
	metrics.Read(costMetrics)
	return costSample{cpuNs: processCPU().Nanoseconds(), bytes: costMetrics[0].Value.Uint64(), objects: costMetrics[1].Value.Uint64()}
}

func (c *hostCost) add(from, to costSample) {
	c.cpuNs += float64(to.cpuNs - from.cpuNs)
	c.bytes += float64(to.bytes - from.bytes)
	c.objects += float64(to.objects - from.objects)
}

func (c *hostCost) report(b *testing.B, phase string, n int) {
	b.ReportMetric(c.cpuNs/1e3/float64(n), phase+"-cpu-µs/op")
	b.ReportMetric(c.bytes/float64(n), phase+"-B/op")
	b.ReportMetric(c.objects/float64(n), phase+"-allocs/op")
}

// BenchmarkHostGroupStartClose is the scale phase's shape: n Go floors, each in its own
// reference host in this process, started at once and then closed at once. Each op is one
// round; the metrics are per extension. Before the stops shared their /proc scans and
// read each environment once, closing 200 cost this process 825 MB (each stop read the
// environment of every process started after its own).
//
//	go test ./internal/target -run X -bench 'HostGroupStartClose/n=200' -benchtime 1x
//
// sandbox=off is octet-host --no-sandbox: each stop still scans /proc for escaped
// descendants; sandbox=on (the default) needs no scan, since the kernel ends each
// extension's PID namespace with its init.
func BenchmarkHostGroupStartClose(b *testing.B) {
	dir := floorGoDir(b)
	defer func() { Unconfined = false }()
	for _, mode := range []string{"on", "off"} {
		for _, n := range []int{10, 50, 200} {
			b.Run(fmt.Sprintf("sandbox=%s/n=%d", mode, n), func(b *testing.B) {
				Unconfined = mode == "off"
				benchStartStop(b, n, func(ctx context.Context) (func() error, error) {
					_, closeAll, err := HostGroupStart(dir, nil, EchoCall)(ctx, n)
					if err != nil {
						return nil, err
					}
					return func() error { closeAll(); return nil }, nil
				})
			})
		}
	}
}

// benchStartStop measures this process's cost of each start and of the stop it returns,
// reported per extension (perOp extensions a start).
func benchStartStop(b *testing.B, perOp int, start func(ctx context.Context) (stop func() error, err error)) {
	ctx := context.Background()
	if err := InitHostServices(ctx); err != nil {
		b.Fatal(err)
	}
	var starts, stops hostCost
	for b.Loop() {
		m0 := readCost()
		stop, err := start(ctx)
		if err != nil {
			b.Fatal(err)
		}
		m1 := readCost()
		if err := stop(); err != nil {
			b.Fatal(err)
		}
		m2 := readCost()
		starts.add(m0, m1)
		stops.add(m1, m2)
	}
	starts.report(b, "start", b.N*perOp)
	stops.report(b, "stop", b.N*perOp)
}
