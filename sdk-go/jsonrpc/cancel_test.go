package jsonrpc_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func TestCallerCancelReturnsAtOnceAndSendsCancel(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{IDPrefix: "go:", Cancellation: cancelRequest})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "slow", nil, nil) }()
	req := p.frame()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	f := p.frame()
	params, _ := f["params"].(map[string]any)
	if f["method"] != "$/cancelRequest" || params["id"] != req["id"] {
		t.Fatalf("cancel frame = %v for request %v", f, req)
	}
	// The late reply is dropped and the connection keeps working.
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{}}`, req["id"]))
	go func() { done <- c.Call(context.Background(), "next", nil, nil) }()
	next := p.frame()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{}}`, next["id"]))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestCancellationDisabledSendsNothing(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{Cancellation: cancelRequest})
	c.SetCancellation(false)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "slow", nil, nil) }()
	p.frame()
	cancel()
	<-done
	go func() { done <- c.Notify("marker", nil) }() // io.Pipe writes wait for the read
	if f := p.frame(); f["method"] != "marker" {
		t.Fatalf("a cancel was sent with cancellation disabled: %v", f)
	}
}

func TestReceiverCancelsTheHandlerAndAnswersCancelled(t *testing.T) {
	started := make(chan struct{})
	_, p := newRawPeer(t, jsonrpc.Options{Cancellation: cancelRequest, Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		close(started)
		<-ctx.Done()
		return map[string]string{"late": "result"}, nil // ignored: the cancel won
	}})
	p.send(`{"jsonrpc":"2.0","id":"h1","method":"slow"}`)
	<-started
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}`)
	f := p.frame()
	if f["id"] != "h1" || errorCode(f) != -32800 {
		t.Fatalf("frame = %v, want -32800 for h1", f)
	}
}

// TestCancellationRacingAResult sends a cancel right behind each request to a
// handler that answers at once: whichever wins, each id gets exactly one answer,
// either the result or -32800.
func TestCancellationRacingAResult(t *testing.T) {
	const n = 200
	_, p := newRawPeer(t, jsonrpc.Options{Handler: echoHandler, MaxInFlight: n, Cancellation: cancelRequest})
	for i := 0; i < n; i++ {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"echo","params":{"i":%d}}`+"\n"+
			`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":%d}}`, i, i, i))
	}
	seen := map[float64]bool{}
	var results, cancels int
	for len(seen) < n {
		f := p.frame()
		id := f["id"].(float64)
		if seen[id] {
			t.Fatalf("id %v answered twice", id)
		}
		seen[id] = true
		switch {
		case f["result"] != nil:
			if f["result"].(map[string]any)["i"] != id {
				t.Fatalf("result %v for id %v", f["result"], id)
			}
			results++
		case errorCode(f) == -32800:
			cancels++
		default:
			t.Fatalf("unexpected answer %v", f)
		}
	}
	t.Logf("%d results won, %d cancels won", results, cancels)
	// A cancel for an unknown id is ignored: the next request is served normally.
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":12345}}`)
	p.send(`{"jsonrpc":"2.0","id":"after","method":"echo","params":{}}`)
	if f := p.frame(); f["id"] != "after" || f["result"] == nil {
		t.Fatalf("frame = %v", f)
	}
}
