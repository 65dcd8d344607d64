package jsonrpc_test

import (
	"context"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Cancelling Options.BaseContext ends a running handler's context while the connection
// stays open: the handler's answer still reaches the peer.
func TestBaseContextCancelsHandlers(t *testing.T) {
	base, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	a, _ := connPair(t, jsonrpc.Options{}, jsonrpc.Options{BaseContext: base, Handler: func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
		close(started)
		<-ctx.Done()
		return map[string]string{"ended": ctx.Err().Error()}, nil
	}})
	go func() { <-started; cancel() }()
	var res struct {
		Ended string `json:"ended"`
	}
	if err := a.Call(context.Background(), "wait", nil, &res); err != nil || res.Ended != context.Canceled.Error() {
		t.Fatalf("call = %+v, %v", res, err)
	}
}
