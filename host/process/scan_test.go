package process

import (
	"os/exec"
	"runtime"
	"sync"
	"testing"
	"time"
)

// Callers arriving while a scan is being read share the next one, and that one is read
// after all of them asked: a process started after they joined is in it.
func TestConcurrentCallersShareAFreshScan(t *testing.T) {
	scans.mu.Lock()
	if scans.running {
		scans.mu.Unlock()
		t.Skip("a scan is in progress")
	}
	scans.running = true // as if a scan were being read now
	scans.mu.Unlock()
	const callers = 8
	got := make([]*scan, callers)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = currentTable() }()
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		scans.mu.Lock()
		n := 0
		if scans.next != nil {
			n = scans.next.joined
		}
		scans.mu.Unlock()
		if n == callers {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d callers joined", n, callers)
		}
		runtime.Gosched()
	}
	c := exec.Command("sleep", "100")
	if err := c.Start(); err != nil {
		t.Skip("no sleep")
	}
	defer func() { _ = c.Process.Kill(); _ = c.Wait() }()
	before := tableReads.Load()
	runScans(&scan{done: make(chan struct{})}) // the scan "in progress" ends; the next starts
	wg.Wait()
	if n := tableReads.Load() - before; n != 2 {
		t.Errorf("%d scans read for %d callers, want the running one and one shared", n, callers)
	}
	for i, s := range got {
		if s != got[0] {
			t.Errorf("caller %d got its own scan", i)
		}
	}
	if _, ok := got[0].procs[c.Process.Pid]; !ok {
		t.Errorf("the shared scan lacks process %d, started before it was read", c.Process.Pid)
	}
}
