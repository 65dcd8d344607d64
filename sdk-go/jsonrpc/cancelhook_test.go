package jsonrpc_test

import (
	"context"
	"errors"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Without a Cancellation the transport knows no cancel message: a cancelled Call tells
// the peer nothing, and "$/cancelRequest" from the peer is an ordinary notification for
// the handler, which leaves the request it names running to its own answer.
func TestNoCancellationHookMeansNoCancelMessage(t *testing.T) {
	notes := make(chan string, 1)
	release := make(chan struct{})
	c, p := newRawPeer(t, jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		if req.IsNotification() {
			notes <- req.Method + " " + string(req.Params)
			return nil, nil
		}
		<-release
		return map[string]bool{"finished": ctx.Err() == nil}, nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "slow", nil, nil) }()
	p.frame()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	go func() { done <- c.Notify("marker", nil) }()
	if f := p.frame(); f["method"] != "marker" {
		t.Fatalf("a cancel was sent without a Cancellation: %v", f)
	}
	<-done

	p.send(`{"jsonrpc":"2.0","id":"h1","method":"serve_me"}`)
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}`)
	if got := <-notes; got != `$/cancelRequest {"id":"h1"}` {
		t.Fatalf("handler saw %q", got)
	}
	close(release)
	f := p.frame()
	if f["id"] != "h1" || f["result"] == nil || f["result"].(map[string]any)["finished"] != true {
		t.Fatalf("frame = %v, want h1 answered by its handler", f)
	}
}

// The hook is the protocol's choice: another method name works the same way in both
// directions, and "$/cancelRequest" is then just a notification.
func TestCancellationHookNamesTheMethod(t *testing.T) {
	started := make(chan struct{})
	notes := make(chan string, 1)
	c, p := newRawPeer(t, jsonrpc.Options{Cancellation: jsonrpc.Cancellation{Method: "x/withdraw"},
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			if req.IsNotification() {
				notes <- req.Method
				return nil, nil
			}
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "slow", nil, nil) }()
	req := p.frame()
	cancel()
	<-done
	f := p.frame()
	if params, _ := f["params"].(map[string]any); f["method"] != "x/withdraw" || params["id"] != req["id"] {
		t.Fatalf("cancel frame = %v for request %v", f, req)
	}
	p.send(`{"jsonrpc":"2.0","id":"h1","method":"serve_me"}`)
	<-started
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}`)
	if got := <-notes; got != "$/cancelRequest" {
		t.Fatalf("handler saw %q", got)
	}
	p.send(`{"jsonrpc":"2.0","method":"x/withdraw","params":{"id":"h1"}}`)
	if f := p.frame(); f["id"] != "h1" || errorCode(f) != jsonrpc.CodeRequestCancelled {
		t.Fatalf("frame = %v, want %d for h1", f, jsonrpc.CodeRequestCancelled)
	}
}
