package jsonrpc_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestOverloadIsAnsweredWithoutStallingTheReader fills the in-flight limit with
// handlers that wait for a response from the peer; the next request is answered
// overloaded at once, and the reader still delivers the responses that release them.
func TestOverloadIsAnsweredWithoutStallingTheReader(t *testing.T) {
	const limit = 4
	var conn *jsonrpc.Conn
	entered := make(chan struct{}, limit)
	conn, p := newRawPeer(t, jsonrpc.Options{MaxInFlight: limit, IDPrefix: "go:", Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		entered <- struct{}{}
		var r map[string]any
		if err := conn.Call(ctx, "kv.get", map[string]any{}, &r); err != nil {
			return nil, err
		}
		return r, nil
	}})
	callbacks := map[string]bool{}
	for i := 0; i < limit; i++ {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"work"}`, i))
		f := p.frame() // the handler's callback
		callbacks[f["id"].(string)] = true
	}
	for i := 0; i < limit; i++ {
		<-entered
	}
	p.send(`{"jsonrpc":"2.0","id":100,"method":"work"}`)
	f := p.frame()
	if f["id"] != 100.0 || errorCode(f) != -32001 {
		t.Fatalf("over the limit: %v, want -32001", f)
	}
	if data := f["error"].(map[string]any)["data"].(map[string]any); data["limit"] != float64(limit) {
		t.Fatalf("overloaded data = %v", data)
	}
	for id := range callbacks {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"result":{"ok":true}}`, id))
	}
	for i := 0; i < limit; i++ {
		if f := p.frame(); f["result"] == nil {
			t.Fatalf("held request answered %v", f)
		}
	}
	// Slots are free again.
	p.send(`{"jsonrpc":"2.0","id":101,"method":"work"}`)
	if f := p.frame(); f["method"] != "kv.get" {
		t.Fatalf("after release: %v", f)
	}
}
