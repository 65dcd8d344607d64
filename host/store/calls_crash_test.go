package store_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/octet-kit/octet/host/store"
)

// Group-committed call records under SIGKILL: a child process queues call records in
// bursts (AppendCall, no waiting), flushes after each burst and prints the last record
// the flush confirmed; the parent kills it at a random point mid-burst, reopens the
// store and checks what appendlog.go promises: every confirmed record is there, and what
// is there is a gap-free prefix of what was queued, in order.
const callBurst = 200

func TestCallRecordsSurviveSIGKILL(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	next := 0
	for it := 0; it < 5; it++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCallRecordsCrashChild$")
		cmd.Env = append(os.Environ(), "OCTET_CALLS_CRASH_CHILD="+dir, fmt.Sprintf("OCTET_CALLS_CRASH_START=%d", next))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		confirmed := -1
		for acks := 1 + rng.IntN(8); acks > 0 && sc.Scan(); {
			if n, err := strconv.Atoi(sc.Text()); err == nil {
				confirmed = n
				acks--
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if confirmed < 0 {
			t.Fatalf("iteration %d: the child confirmed nothing", it)
		}
		next = checkCallPrefix(t, dir, confirmed, it)
	}
}

// checkCallPrefix returns how many records the store holds.
func checkCallPrefix(t *testing.T, dir string, confirmed, it int) int {
	t.Helper()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("iteration %d: reopen: %v", it, err)
	}
	defer st.Close()
	calls, err := st.Calls(context.Background(), "crash")
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range calls {
		if c.StartedAtMS != int64(i) {
			t.Fatalf("iteration %d: record %d is seq %d: not a gap-free prefix of what was queued", it, i, c.StartedAtMS)
		}
	}
	if len(calls) <= confirmed {
		t.Fatalf("iteration %d: %d records survived, but record %d was confirmed committed", it, len(calls), confirmed)
	}
	return len(calls)
}

// TestCallRecordsCrashChild is the child process of TestCallRecordsSurviveSIGKILL; it
// does nothing in a normal run.
func TestCallRecordsCrashChild(t *testing.T) {
	dir := os.Getenv("OCTET_CALLS_CRASH_CHILD")
	if dir == "" {
		t.Skip("helper process for TestCallRecordsSurviveSIGKILL")
	}
	start, _ := strconv.Atoi(os.Getenv("OCTET_CALLS_CRASH_START"))
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for n := start; ; {
		for range callBurst {
			if err := st.AppendCall(store.CallRecord{Extension: "crash", InstanceID: "i", Generation: 1, Direction: "in", Method: "kv.get", StartedAtMS: int64(n)}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			n++
		}
		if err := st.Flush(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(n - 1)
	}
}
