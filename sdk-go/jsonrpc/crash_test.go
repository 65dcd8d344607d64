package jsonrpc_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestCrashMidCallIsATransportError runs a real child process that exits while
// serving a call: the call fails with ErrTransport (not a hang, not an authored
// error), and so does every later call.
func TestCrashMidCallIsATransportError(t *testing.T) {
	_, fromChild, toChild := startChild(t, "crash")
	c := jsonrpc.NewConn(fromChild, toChild, jsonrpc.Options{})
	defer c.Close()
	var got map[string]int
	if err := c.Call(context.Background(), "echo", map[string]int{"a": 1}, &got); err != nil || got["a"] != 1 {
		t.Fatalf("echo before the crash: %v %v", got, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := c.Call(ctx, "crash", nil, nil)
	if !errors.Is(err, jsonrpc.ErrTransport) {
		t.Fatalf("crash mid-call = %v, want ErrTransport", err)
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		t.Fatalf("a crash looks like an authored error: %v", err)
	}
	if err := c.Call(context.Background(), "echo", nil, nil); !errors.Is(err, jsonrpc.ErrTransport) {
		t.Fatalf("call after the crash = %v", err)
	}
}
