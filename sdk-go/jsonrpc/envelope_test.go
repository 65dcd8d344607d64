package jsonrpc_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// envelopes records what Options.OnMessage saw, in order.
type envelopes struct {
	mu  sync.Mutex
	got []string
}

func (e *envelopes) on(dir jsonrpc.Direction, env jsonrpc.Envelope) {
	e.mu.Lock()
	defer e.mu.Unlock()
	d := "out"
	if dir == jsonrpc.Inbound {
		d = "in"
	}
	e.got = append(e.got, fmt.Sprintf("%s id=%s method=%s cancel=%s request=%t response=%t",
		d, env.ID, env.Method, env.CancelID, env.IsRequest(), env.IsResponse()))
}

func (e *envelopes) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.got...)
}

// OnMessage hands the envelope of each request and notification this side sends before
// its frame is written, and of each message the peer sends once decoded: requests,
// responses, its $/cancelRequest with the id it names. A frame that is not a valid
// message is not an envelope.
func TestOnMessageSeesEveryEnvelopeOnce(t *testing.T) {
	var seen envelopes
	started := make(chan struct{})
	c, p := newRawPeer(t, jsonrpc.Options{IDPrefix: "go:", OnMessage: seen.on, Cancellation: cancelRequest,
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		}})

	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "first", map[string]int{"n": 1}, nil) }()
	req := p.frame()
	if got := seen.list(); len(got) != 1 {
		t.Fatalf("the request was written before its envelope was seen: %v", got)
	}
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{}}`, req["id"]))
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- c.Call(ctx, "slow", nil, nil) }()
	p.frame()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v", err)
	}
	p.frame() // the connection's own $/cancelRequest

	go func() { done <- c.Notify("$/cancelRequest", map[string]any{"id": 7}) }()
	p.frame()
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	p.send(`{"jsonrpc":"2.0","id":"h1","method":"serve_me"}`)
	<-started
	p.send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"h1"}}`)
	p.frame()                                      // the handler's cancelled answer
	p.send(`{"jsonrpc":"2.0","id":"h2","method":`) // invalid: no envelope

	want := []string{
		"out id=go:1 method=first cancel= request=true response=false",
		"in id=go:1 method= cancel= request=false response=true",
		"out id=go:2 method=slow cancel= request=true response=false",
		"out id= method=$/cancelRequest cancel=go:2 request=false response=false",
		"out id= method=$/cancelRequest cancel=7 request=false response=false",
		"in id=h1 method=serve_me cancel= request=true response=false",
		"in id= method=$/cancelRequest cancel=h1 request=false response=false",
	}
	got := seen.list()
	if len(got) != len(want) {
		t.Fatalf("envelopes:\n%q\nwant\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("envelope %d = %q, want %q", i, got[i], want[i])
		}
	}
}
