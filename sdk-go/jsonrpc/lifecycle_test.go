package jsonrpc_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestReplyThenCloseFlushesTheAnswer: the reply is written before the connection
// closes, and the peer then sees the close.
func TestReplyThenCloseFlushesTheAnswer(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{Handler: func(context.Context, *jsonrpc.Request) (any, error) {
		return jsonrpc.ReplyThenClose(map[string]any{}), nil
	}})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`)
	if f := p.frame(); f["id"] != 1.0 || f["result"] == nil {
		t.Fatalf("ack = %v", f)
	}
	if err := waitDone(t, c); !errors.Is(err, jsonrpc.ErrTransport) || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Err() = %v", err)
	}
}

func TestSetMaxMessageBytesAppliesToBothDirections(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{})
	c.SetMaxMessageBytes(100)
	if err := c.Notify("m", map[string]string{"pad": strings.Repeat("x", 200)}); err == nil || !strings.Contains(err.Error(), "100-byte message limit") {
		t.Fatalf("outgoing over the new limit: %v", err)
	}
	p.send(`{"jsonrpc":"2.0","method":"m","params":{"pad":"` + strings.Repeat("x", 200) + `"}}`)
	if err := waitDone(t, c); !strings.Contains(err.Error(), "exceeds the 100-byte limit") {
		t.Fatalf("incoming over the new limit: %v", err)
	}
}

func TestWaitServingCountsUntilTheAnswerIsQueued(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	c, p := newRawPeer(t, jsonrpc.Options{Handler: func(context.Context, *jsonrpc.Request) (any, error) {
		close(started)
		<-release
		return map[string]any{}, nil
	}})
	p.send(`{"jsonrpc":"2.0","id":1,"method":"hold"}`)
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.WaitServing(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("WaitServing with a request in flight = %v, want it to wait", err)
	}
	done := make(chan error, 1)
	go func() { done <- c.WaitServing(context.Background(), 0) }()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if f := p.frame(); f["id"] != 1.0 {
		t.Fatalf("answer = %v", f)
	}
}
