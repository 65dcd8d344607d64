package jsonrpc_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// blockedCall starts a call the raw peer never answers, returning its result channel.
func blockedCall(c *jsonrpc.Conn) chan error {
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "never", nil, nil) }()
	return done
}

func TestProtocolErrorsCloseWithAReason(t *testing.T) {
	cases := []struct {
		name, line string
		code       int64
		reason     []string
	}{
		{"garbage", "hello there", -32700, []string{"protocol error: invalid JSON at line 1", `"hello there"`}},
		{"truncated", `{"jsonrpc":"2.0","id":1`, -32700, []string{"invalid JSON", `{\"jsonrpc\"`}},
		{"blank line", "", -32700, []string{"invalid JSON at line 1"}},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"a"}]`, -32600, []string{"not a JSON object", "[{"}},
		{"scalar", `42`, -32600, []string{"not a JSON object"}},
		{"unknown field in response", `{"jsonrpc":"2.0","id":1,"result":{},"extra":1}`, -32600, []string{`unknown envelope field "extra"`}},
		{"both result and error", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`, -32600, []string{`both "result" and "error"`}},
		{"bad version notification", `{"jsonrpc":"1.0","method":"x"}`, -32600, []string{`"jsonrpc" is "1.0"`}},
		{"float id response", `{"jsonrpc":"2.0","id":1.0,"result":{}}`, -32600, []string{"neither an integer"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, p := newRawPeer(t, jsonrpc.Options{})
			pending := blockedCall(c)
			p.frame() // the blocked call's request
			p.send(tc.line)
			f := p.frame()
			if errorCode(f) != tc.code || f["id"] != nil {
				t.Fatalf("final frame = %v, want error %d with null id", f, tc.code)
			}
			err := waitDone(t, c)
			if !errors.Is(err, jsonrpc.ErrTransport) {
				t.Fatalf("Err() = %v, want ErrTransport", err)
			}
			for _, want := range tc.reason {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("reason %q does not contain %q", err, want)
				}
			}
			if err := <-pending; !errors.Is(err, jsonrpc.ErrTransport) {
				t.Fatalf("pending call = %v, want ErrTransport", err)
			}
			if err := c.Call(context.Background(), "later", nil, nil); !errors.Is(err, jsonrpc.ErrTransport) {
				t.Fatalf("later call = %v, want ErrTransport", err)
			}
		})
	}
}

func TestOversizedLineClosesTheConnection(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{MaxMessageBytes: 1024})
	pending := blockedCall(c)
	p.frame()
	p.send(`{"jsonrpc":"2.0","method":"x","params":{"pad":"` + strings.Repeat("a", 4096) + `"}}`)
	if f := p.frame(); errorCode(f) != -32600 {
		t.Fatalf("final frame = %v", f)
	}
	err := waitDone(t, c)
	for _, want := range []string{"exceeds the 1024-byte limit", `{\"jsonrpc\":\"2.0\",\"method\":\"x\"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("reason %q does not contain %q", err, want)
		}
	}
	if err := <-pending; !errors.Is(err, jsonrpc.ErrTransport) {
		t.Fatalf("pending call = %v", err)
	}
}

func TestLineAtTheLimitIsAccepted(t *testing.T) {
	const limit = 200
	_, p := newRawPeer(t, jsonrpc.Options{MaxMessageBytes: limit, Handler: func(context.Context, *jsonrpc.Request) (any, error) {
		return map[string]bool{"ok": true}, nil
	}})
	head, tail := `{"jsonrpc":"2.0","id":1,"method":"x","params":{"p":"`, `"}}`
	p.send(head + strings.Repeat("a", limit-len(head)-len(tail)) + tail)
	if f := p.frame(); f["result"] == nil {
		t.Fatalf("frame = %v", f)
	}
}

func TestBadRequestWithAnIDIsAnsweredNotFatal(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{Handler: echoHandler})
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"x","Params":{}}`,         // case variant of a field
		`{"jsonrpc":"2.0","id":2,"method":"x","params":[1]}`,        // params not an object
		`{"jsonrpc":"2.0","id":3,"method":"x","method":"y"}`,        // duplicate field
		`{"jsonrpc":"2.0","id":4,"method":"x","result":{}}`,         // request with a result
		`{"jsonrpc":"2.0","id":5,"method":"x","params":{},"ext":1}`, // unknown field
	} {
		p.send(line)
		f := p.frame()
		if errorCode(f) != -32600 {
			t.Fatalf("%s answered %v, want -32600", line, f)
		}
	}
	p.send(`{"jsonrpc":"2.0","id":6,"method":"x","params":{"still":"alive"}}`)
	if f := p.frame(); f["id"] != 6.0 || f["result"] == nil {
		t.Fatalf("connection did not survive: %v", f)
	}
	if c.Err() != nil {
		t.Fatalf("Err() = %v", c.Err())
	}
}

// A late answer to a call this side gave up on is dropped and the connection goes on.
func TestLateResponsesAreDropped(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{Handler: echoHandler})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "slow", map[string]any{}, nil) }()
	req := p.frame()
	cancel()
	<-done
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%v,"result":{}}`, req["id"]))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}}`)
	for {
		f := p.frame()
		if f["method"] == "$/cancelRequest" {
			continue
		}
		if f["id"] != 1.0 {
			t.Fatalf("frame = %v", f)
		}
		break
	}
	if c.Err() != nil {
		t.Fatalf("Err() = %v", c.Err())
	}
}

// A response to an id this side never sent is a protocol error that fails the pending
// calls at once (issue 19 finding 6: it was dropped, and the caller waited for its
// timeout).
func TestResponseToAnIDNeverIssuedIsAProtocolError(t *testing.T) {
	for _, id := range []string{`999`, `"go:1"`, `0`} {
		c, p := newRawPeer(t, jsonrpc.Options{Handler: echoHandler})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		done := make(chan error, 1)
		go func() { done <- c.Call(ctx, "slow", map[string]any{}, nil) }()
		p.frame()
		p.send(`{"jsonrpc":"2.0","id":` + id + `,"result":{}}`)
		err := <-done
		cancel()
		if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "never issued") {
			t.Fatalf("id %s: the pending call ended with %v, want a protocol error naming the id", id, err)
		}
		if c.Err() == nil {
			t.Fatalf("id %s: the connection is still open", id)
		}
	}
}

func TestPeerEOFFailsPendingCalls(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{})
	pending := blockedCall(c)
	p.frame()
	p.w.Close()
	err := <-pending
	if !errors.Is(err, jsonrpc.ErrTransport) || !strings.Contains(err.Error(), "peer closed") {
		t.Fatalf("pending call = %v", err)
	}
}

// Invalid UTF-8 in a frame (here inside a result string) is a parse error that fails the
// pending call, as the Python and TypeScript SDKs refuse it (issue 19 finding 6: the host
// replaced the bytes with U+FFFD and returned the result).
func TestInvalidUTF8InAResultIsRefused(t *testing.T) {
	c, p := newRawPeer(t, jsonrpc.Options{Handler: echoHandler})
	done := make(chan error, 1)
	var got map[string]any
	go func() { done <- c.Call(context.Background(), "x", map[string]any{}, &got) }()
	req := p.frame()
	p.send(fmt.Sprintf("{\"jsonrpc\":\"2.0\",\"id\":%v,\"result\":{\"text\":\"a\xffb\"}}", req["id"]))
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "not valid UTF-8 (byte 43)") {
		t.Fatalf("the call ended with %v (result %q), want a refusal naming the byte", err, got)
	}
	if c.Err() == nil {
		t.Fatal("the connection is still open")
	}
}
