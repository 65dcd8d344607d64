package target

import (
	"context"
	"os"
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
	return reboundGoBuild(b, filepath.Join("bench", "floors", "floor-go"), "")
}

// reboundGoBuild builds the Go program in rel (a directory under the checkout's root)
// and returns a copy of its manifest directory whose command is that binary. A non-empty
// binEnv names an environment variable that, when set, gives a prebuilt binary instead
// (to compare two builds in alternating runs).
func reboundGoBuild(b *testing.B, rel, binEnv string) string {
	b.Helper()
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(root, rel)
	bin := ""
	if binEnv != "" {
		bin = os.Getenv(binEnv)
	}
	if bin == "" {
		bin = filepath.Join(b.TempDir(), filepath.Base(rel))
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = src
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("build %s: %v\n%s", rel, err, out)
		}
	}
	dir, err := Rebind(src, bin, b.TempDir())
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

// The same pair for the Go conformance fixture: what the host adds to an SDK's call
// (the fixture's answer is the SDK's, its echo tool declares the schemas the host checks).
func BenchmarkFixtureGoDirect(b *testing.B) {
	benchEcho(b, OctetDirect(goFixtureDir(b), nil, EchoCall))
}

func BenchmarkFixtureGoHost(b *testing.B) { benchEcho(b, HostStart(goFixtureDir(b), nil, EchoCall)) }
