package target

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Where the CPU of a call goes with 32 in flight, split between this process (the
// driver, plus the host library when the call goes through it) and the extension
// process, driven directly and through the host in the same run. On 2 cores the
// machine is CPU-bound at 32 in flight, so calls/s is about 2 cores ÷ (driver CPU +
// extension CPU) a call, and what the host adds shows as cpu-µs/op here; ext-µs/op
// shows whether the extension itself works harder when the host drives it. Run with
//
//	go test ./internal/target -run X -bench 'InFlight32' -benchtime 40000x -count 3
//
// ext-µs/op is the extension's CPU from getrusage(RUSAGE_CHILDREN) around the whole
// benchmark, start and warm-up included (about 50 ms for a Python start, under 1.5
// µs a call at 40,000 calls).
func BenchmarkInFlight32(b *testing.B) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	dirs := []struct{ name, dir string }{
		{"python-floor", filepath.Join(root, "bench", "floors", "floor-python")},
		{"python-fixture", filepath.Join(root, "examples", "python", "conformance-fixture")},
		{"node-floor", filepath.Join(root, "bench", "floors", "floor-node")},
		{"typescript-fixture", filepath.Join(root, "examples", "typescript", "conformance-fixture")},
	}
	// One Python for the floor and the fixture, as octet-bench gives them (its langEnv):
	// the fixture's launcher prefers the kit's .venv, the floor's takes python3 unless told.
	env := BaseEnv()
	if py := filepath.Join(root, ".venv", "bin", "python"); fileExists(py) {
		env = append(env, "OCTET_PYTHON="+py)
	}
	for _, d := range dirs {
		b.Run(d.name+"/direct", func(b *testing.B) { benchInFlight(b, OctetDirect(d.dir, env, EchoCall)) })
		b.Run(d.name+"/host", func(b *testing.B) { benchInFlight(b, HostStart(d.dir, env, EchoCall)) })
	}
}

func benchInFlight(b *testing.B, start func(ctx context.Context) (Session, error)) {
	const inFlight = 32
	ctx := context.Background()
	children0 := childrenCPU()
	s, err := start(ctx)
	if err != nil {
		b.Fatal(err)
	}
	run := func(n int) {
		var wg sync.WaitGroup
		errs := make(chan error, inFlight)
		for w := 0; w < inFlight; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := w; i < n; i += inFlight {
					if err := s.Echo(ctx); err != nil {
						errs <- err
						return
					}
				}
			}(w)
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	run(2000) // warm-up: the extension's and the host's caches, the heap's working size
	cpu0 := processCPU()
	b.ResetTimer()
	run(b.N)
	b.StopTimer()
	cpu := processCPU() - cpu0
	if err := s.Close(); err != nil {
		b.Log(err) // a closing extension's exit status is not the measurement
	}
	ext := childrenCPU() - children0
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
	b.ReportMetric(float64(ext.Microseconds())/float64(b.N+2000), "ext-µs/op")
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
}

// childrenCPU is the user and system CPU of this process's reaped children so far.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
