// Package memcap runs one step of a test in a child process whose address space is capped,
// so a test can assert that a parser's memory is bounded by measuring it, not by timing it.
//
// The test binary re-executes itself running only the calling test; in the child, Run sets
// RLIMIT_AS to the address space the child already has plus a safety net well above the
// budget (a Go binary maps about a gigabyte of address space before main, none of it
// resident), runs the step and prints what it measured. The parent fails when the step
// allocated more than the budget on the heap or grew the child's peak resident size by more
// than it. The address-space cap is only the net that keeps a runaway parser (the old
// manifest reader took 24 GB) from taking the machine: capping at the budget itself made
// the Go runtime's collector fault when an mmap failed, so the verdict is the measurement.
package memcap

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// envChild names the test the child runs; envBudget carries its budget in bytes.
const (
	envChild  = "OCTET_MEMCAP_CHILD"
	envBudget = "OCTET_MEMCAP_BUDGET"
	marker    = "memcap-result: "
)

// Measured is what the child saw while running the step.
type Measured struct {
	Result     string `json:"result"`      // the step's own report (e.g. the refusal message)
	AllocBytes uint64 `json:"alloc_bytes"` // bytes allocated on the Go heap by the step
	PeakRSS    uint64 `json:"peak_rss"`    // the child's peak resident set size (VmHWM), bytes
	StartRSS   uint64 `json:"start_rss"`   // the child's peak resident size before the step, bytes
}

// Run runs step in a child limited to budget bytes of address space beyond its own start,
// and returns what it measured. Call it at most once per test (or subtest).
func Run(t *testing.T, budget uint64, step func() string) Measured {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("memcap measures through RLIMIT_AS and /proc/self/status, which only Linux has")
	}
	if os.Getenv(envChild) == t.Name() {
		child(step)
		panic("unreachable")
	}
	var run []string
	for _, part := range strings.Split(t.Name(), "/") {
		run = append(run, "^"+regexp.QuoteMeta(part)+"$")
	}
	cmd := exec.Command(os.Args[0], "-test.run="+strings.Join(run, "/"), "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), envChild+"="+t.Name(), envBudget+"="+strconv.FormatUint(budget, 10))
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, marker); ok && err == nil {
			var m Measured
			if jerr := json.Unmarshal([]byte(rest), &m); jerr != nil {
				t.Fatalf("memcap: child report %q: %v", rest, jerr)
			}
			if m.AllocBytes > budget || m.PeakRSS > m.StartRSS+budget {
				t.Fatalf("the step needed more than %d MiB: %d MiB allocated, peak resident size grew by %d MiB",
					budget>>20, m.AllocBytes>>20, (m.PeakRSS-min(m.PeakRSS, m.StartRSS))>>20)
			}
			return m
		}
	}
	tail := string(out)
	if len(tail) > 2000 {
		tail = tail[:1000] + "\n...\n" + tail[len(tail)-1000:]
	}
	t.Fatalf("the step did not finish within its memory (budget %d MiB; child: %v):\n%s", budget>>20, err, tail)
	return Measured{}
}

func child(step func() string) {
	budget, err := strconv.ParseUint(os.Getenv(envBudget), 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "memcap: bad budget:", err)
		os.Exit(2)
	}
	net := max(8*budget, 512<<20)
	lim := syscall.Rlimit{Cur: status("VmSize") + net, Max: status("VmSize") + net}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "memcap: setrlimit:", err)
		os.Exit(2)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := status("VmHWM")
	result := step()
	runtime.ReadMemStats(&after)
	b, _ := json.Marshal(Measured{Result: result, AllocBytes: after.TotalAlloc - before.TotalAlloc, PeakRSS: status("VmHWM"), StartRSS: start})
	fmt.Printf("\n%s%s\n", marker, b)
	os.Exit(0)
}

// status reads a kB field of /proc/self/status, in bytes.
func status(field string) uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}
