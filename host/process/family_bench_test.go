package process

import (
	"os"
	"testing"
)

// BenchmarkFamilyScan is what each generation end costs on top of signalling: one read of
// the process table and the four family rules (KillFamily's round when nothing is left).
func BenchmarkFamilyScan(b *testing.B) {
	p := &Process{leader: identOf(os.Getpid()), marker: "OCTET_EXTENSION_SCRATCH=/nonexistent", family: map[Ident]bool{}}
	n := len(readTable())
	for b.Loop() {
		p.descendants(readTable())
	}
	b.ReportMetric(float64(n), "procs")
}
