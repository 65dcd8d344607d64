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

// The crash test: a child process commits KV batches in a loop and prints
// each acknowledged batch number; the parent SIGKILLs it at a random point,
// reopens the store and checks that every batch is wholly applied or wholly
// absent and that nothing acknowledged was lost.
//
// Short by default (5 kills). The full run:
//
//	OCTET_KV_CRASH_ITERATIONS=1000 go test ./host/store -run TestKVCrashSafety -v
const crashKeys = 16

func TestKVCrashSafety(t *testing.T) {
	iterations := 5
	if s := os.Getenv("OCTET_KV_CRASH_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("OCTET_KV_CRASH_ITERATIONS=%q is not a positive integer", s)
		}
		iterations = n
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	lastAcked := -1
	for it := 0; it < iterations; it++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKVCrashChild$")
		cmd.Env = append(os.Environ(), "OCTET_KV_CRASH_CHILD="+dir, fmt.Sprintf("OCTET_KV_CRASH_START=%d", lastAcked+1))
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(out)
		killAfter := 1 + rng.IntN(20)
		for i := 0; i < killAfter && sc.Scan(); i++ {
			n, err := strconv.Atoi(sc.Text())
			if err != nil {
				continue // test framework chatter
			}
			lastAcked = n
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		checkBatches(t, dir, lastAcked, it)
	}
}

func checkBatches(t *testing.T, dir string, lastAcked, it int) {
	t.Helper()
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatalf("iteration %d: reopen: %v", it, err)
	}
	defer st.Close()
	entries, _, err := st.KVList(context.Background(), "crash", "", "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != crashKeys {
		t.Fatalf("iteration %d: %d keys, want %d (a batch applied partly)", it, len(entries), crashKeys)
	}
	first := string(entries[0].Value)
	for _, e := range entries {
		if string(e.Value) != first {
			t.Fatalf("iteration %d: key %s = %s but key %s = %s: a batch applied partly", it, entries[0].Key, first, e.Key, e.Value)
		}
	}
	n, _ := strconv.Atoi(first)
	if n < lastAcked {
		t.Fatalf("iteration %d: store holds batch %d but batch %d was acknowledged", it, n, lastAcked)
	}
}

// TestKVCrashChild is the child process of TestKVCrashSafety; it does
// nothing in a normal run.
func TestKVCrashChild(t *testing.T) {
	dir := os.Getenv("OCTET_KV_CRASH_CHILD")
	if dir == "" {
		t.Skip("helper process for TestKVCrashSafety")
	}
	start, _ := strconv.Atoi(os.Getenv("OCTET_KV_CRASH_START"))
	st, err := store.Open(context.Background(), dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for n := start; ; n++ {
		writes := make([]store.KVWrite, crashKeys)
		for k := range writes {
			writes[k] = store.KVWrite{Namespace: "crash", Key: fmt.Sprintf("k%02d", k), Value: []byte(strconv.Itoa(n))}
		}
		if _, err := st.KVCommit(context.Background(), nil, writes); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		fmt.Println(n)
	}
}
