package jsonrpc_test

import (
	"context"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestServerGoroutinesAreKeptBoundedAndReleased: served requests reuse idle server
// goroutines, a burst leaves at most a bounded number waiting afterwards (not one
// per request of the burst), and every one of them ends with the connection.
func TestServerGoroutinesAreKeptBoundedAndReleased(t *testing.T) {
	baseline := runtime.NumGoroutine()
	const burst = 48 // well above the idle bound
	var hold sync.WaitGroup
	hold.Add(burst)
	release := make(chan struct{})
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	a := jsonrpc.NewConn(ar, aw, jsonrpc.Options{})
	b := jsonrpc.NewConn(br, bw, jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		if req.Method == "hold" {
			hold.Done()
			<-release
		}
		return req.Params, nil
	}})
	ctx := context.Background()
	var calls sync.WaitGroup
	for range burst {
		calls.Add(1)
		go func() {
			defer calls.Done()
			if err := a.Call(ctx, "hold", nil, nil); err != nil {
				t.Error(err)
			}
		}()
	}
	hold.Wait() // every request of the burst is being served on its own goroutine
	close(release)
	calls.Wait()
	for i := range 200 {
		if err := a.Call(ctx, "echo", map[string]int{"i": i}, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Each Conn runs a writer loop, a notification loop and one reading server;
	// b keeps at most 16 idle servers (maxIdleServers); a little slack for the
	// runtime. Without the bound the burst's servers would all still be waiting.
	if n, limit := runtime.NumGoroutine()-baseline, 2*3+16+4; n > limit {
		t.Fatalf("%d goroutines above the baseline after a burst of %d, want at most %d", n, burst, limit)
	}
	a.Close()
	b.Close()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseline {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left after Close (baseline %d):\n%s", runtime.NumGoroutine(), baseline, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(5 * time.Millisecond)
	}
}
