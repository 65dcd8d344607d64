package process

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkFamilyScan is what each generation end costs on top of signalling: one read of
// the process table and the four family rules (KillFamily's round when nothing is left).
func BenchmarkFamilyScan(b *testing.B) {
	p := &Process{leader: identOf(os.Getpid()), marker: "OCTET_EXTENSION_SCRATCH=/nonexistent", family: map[Ident]bool{}}
	n := len(readTable())
	for b.Loop() {
		p.descendants(currentTable())
	}
	b.ReportMetric(float64(n), "procs")
}

// BenchmarkStopAmongUnrelated is one extension's Stop (SIGTERM to a sleep, the family
// scans before and after) while `unrelated` sleeping children of this test, all started
// after every leader, sit in the process table: the shape of N hosts closing, where each
// stop sees the extensions started after its own. Each op stops one leader; with
// concurrent=true all b.N leaders stop at once. cpu-µs/op is this process's own CPU
// (getrusage), never the sleeps'.
func BenchmarkStopAmongUnrelated(b *testing.B) {
	for _, unrelated := range []int{0, 200} {
		for _, concurrent := range []bool{false, true} {
			b.Run(fmt.Sprintf("unrelated=%d/concurrent=%v", unrelated, concurrent), func(b *testing.B) {
				benchStops(b, unrelated, concurrent)
			})
		}
	}
}

func benchStops(b *testing.B, unrelated int, concurrent bool) {
	dir := b.TempDir()
	leaders := make([]*Process, b.N)
	for i := range leaders {
		p, err := Start(Spec{Name: "sleeper", Dir: dir, Command: "sleep", Args: []string{"1000"}, Workspace: dir,
			ScratchDir: filepath.Join(dir, fmt.Sprintf("gen-%d", i))})
		if err != nil {
			b.Fatal(err)
		}
		leaders[i] = p
	}
	var others []*exec.Cmd
	defer func() {
		for _, c := range others {
			_ = c.Process.Kill()
			_ = c.Wait()
		}
	}()
	for range unrelated {
		c := exec.Command("sleep", "1000")
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		others = append(others, c)
	}
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/allocs:objects"}}
	metrics.Read(samples)
	bytes0, objs0 := samples[0].Value.Uint64(), samples[1].Value.Uint64()
	cpu0 := selfCPU()
	b.ResetTimer()
	if concurrent {
		var wg sync.WaitGroup
		for _, p := range leaders {
			wg.Add(1)
			go func() { defer wg.Done(); p.Stop(time.Second) }()
		}
		wg.Wait()
	} else {
		for _, p := range leaders {
			p.Stop(time.Second)
		}
	}
	b.StopTimer()
	metrics.Read(samples)
	n := float64(b.N)
	b.ReportMetric(float64(selfCPU()-cpu0)/1e3/n, "cpu-µs/op")
	b.ReportMetric(float64(samples[0].Value.Uint64()-bytes0)/n, "heap-B/op")
	b.ReportMetric(float64(samples[1].Value.Uint64()-objs0)/n, "heap-allocs/op")
}

func selfCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
