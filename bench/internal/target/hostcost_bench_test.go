package target

import (
	"context"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The host's own per-call cost: the Go floor (the least code that answers echo) called
// sequentially, once directly over sdk-go/jsonrpc from this process and once through the
// reference host library, in the same run. host ÷ direct is what the host adds; profile
// the host side with
//
//	go test ./internal/target -run X -bench 'FloorGo' -cpuprofile /tmp/host.prof
func floorGoDir(b *testing.B) string {
	b.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(b.TempDir(), "floor-go")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = filepath.Join(root, "bench", "floors", "floor-go")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build floor: %v\n%s", err, out)
	}
	dir, err := Rebind(filepath.Join(root, "bench", "floors", "floor-go"), bin, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchEcho(b *testing.B, start func(ctx context.Context) (Session, error)) {
	ctx := context.Background()
	s, err := start(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for i := 0; i < 200; i++ {
		if err := s.Echo(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	cpu0 := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Echo(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// This process's CPU time per call (the host library's and the driver's, never the
	// extension's): steadier than ns/op on a shared machine, where waiting for a core
	// inflates the wall time but not the work.
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
}

// processCPU is the user and system CPU time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkFloorGoDirect(b *testing.B) { benchEcho(b, OctetDirect(floorGoDir(b), nil, EchoCall)) }

func BenchmarkFloorGoHost(b *testing.B) { benchEcho(b, HostStart(floorGoDir(b), nil, EchoCall)) }
