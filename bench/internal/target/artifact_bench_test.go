package target

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestMain removes the hosts' shared store once every benchmark is done: a benchmark
// function runs several times, and all of them share the store.
func TestMain(m *testing.M) {
	code := m.Run()
	CloseHostServices()
	os.Exit(code)
}

// BenchmarkHostArtifactGo16MiB is the bench's 16 MiB scratch-path scenario on its own:
// the Go conformance fixture under the reference host (its store and scratch on the
// same filesystem, as octet-bench runs them) builds the pattern bytes, hashes them,
// writes the scratch file and publishes it; the host verifies and stores it. MB/s is
// end to end, one publish per op. OCTET_BENCH_GO_FIXTURE names a prebuilt fixture
// binary (to compare two builds in alternating runs); otherwise the fixture is built
// from this checkout first.
func BenchmarkHostArtifactGo16MiB(b *testing.B) {
	dir := reboundGoBuild(b, filepath.Join("examples", "go", "conformance-fixture"), "OCTET_BENCH_GO_FIXTURE")
	ctx := context.Background()
	const size = 16 << 20
	// A generation may hold 64 MiB of artifacts, so every fourth publish starts a
	// fresh host (untimed); its first publish is untimed too, since the fixture's first
	// 16 MiB pays for growing its heap.
	// Where the wall time goes, from the host's frame tap: the fixture until its
	// artifact/publish arrives (build, hash, write), the host until it answers (open,
	// copy, hash, fsync, rename, row), the fixture again until the tool answers.
	var asked, answered atomic.Int64
	hook := func(_ string, dir jsonrpc.Direction, frame []byte) {
		switch {
		case dir == jsonrpc.Inbound && bytes.Contains(frame, []byte(`"artifact/publish"`)):
			asked.Store(time.Now().UnixNano())
		case dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`"artifact_id"`)):
			answered.Store(time.Now().UnixNano())
		}
	}
	var g *HostGroup
	var pub Publisher
	restart := func() {
		if g != nil {
			g.Close()
		}
		var err error
		if g, err = StartHost(ctx, []string{dir}, nil); err != nil {
			b.Fatal(err)
		}
		pub = g.Session(0, EchoCall).(Publisher)
		if err := pub.Publish(ctx, size, "path"); err != nil {
			b.Fatal(err)
		}
		g.frameHook.Store(&hook)
	}
	defer func() {
		if g != nil {
			g.Close()
		}
	}()
	// CPU per publish, the host's (this process) and the fixture's, beside the wall
	// time: on a shared 2-core machine waiting for a core inflates MB/s, not the work.
	var hostCPU, extCPU time.Duration
	var extBefore, hostSide, extAfter time.Duration
	b.SetBytes(size)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%3 == 0 {
			b.StopTimer()
			restart()
			b.StartTimer()
		}
		h0, e0 := processCPU(), threadsCPU(pub.(interface{ PID() int }).PID())
		start := time.Now()
		if err := pub.Publish(ctx, size, "path"); err != nil {
			b.Fatal(err)
		}
		end := time.Now()
		hostCPU += processCPU() - h0
		extCPU += threadsCPU(pub.(interface{ PID() int }).PID()) - e0
		t1, t2 := time.Unix(0, asked.Load()), time.Unix(0, answered.Load())
		extBefore += t1.Sub(start)
		hostSide += t2.Sub(t1)
		extAfter += end.Sub(t2)
	}
	b.StopTimer()
	perOp := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 / float64(b.N) }
	b.ReportMetric(perOp(extBefore), "ext-wall-ms/op")
	b.ReportMetric(perOp(hostSide), "host-wall-ms/op")
	b.ReportMetric(perOp(extAfter), "after-wall-ms/op")
	b.ReportMetric(perOp(hostCPU), "host-cpu-ms/op")
	b.ReportMetric(perOp(extCPU), "ext-cpu-ms/op")
}

// threadsCPU is the CPU time the live threads of process pid have run, from the
// scheduler's nanosecond counters (/proc/PID/task/*/schedstat, first field); a thread
// that exited is not counted, which for a Go extension's long-lived Ms is rare.
func threadsCPU(pid int) time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	var total time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		ns, _ := strconv.ParseInt(f[0], 10, 64)
		total += time.Duration(ns)
	}
	return total
}
