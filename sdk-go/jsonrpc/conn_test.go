package jsonrpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

func TestCallRoundTripBothDirections(t *testing.T) {
	a, b := connPair(t, jsonrpc.Options{Handler: echoHandler}, jsonrpc.Options{Handler: echoHandler, IDPrefix: "go:"})
	var got map[string]string
	if err := a.Call(context.Background(), "echo", map[string]string{"v": "from a"}, &got); err != nil {
		t.Fatal(err)
	}
	if got["v"] != "from a" {
		t.Fatalf("a got %v", got)
	}
	if err := b.Call(context.Background(), "echo", map[string]string{"v": "from b"}, &got); err != nil {
		t.Fatal(err)
	}
	if got["v"] != "from b" {
		t.Fatalf("b got %v", got)
	}
}

func TestConcurrentCallsMatchTheirResponses(t *testing.T) {
	a, _ := connPair(t, jsonrpc.Options{}, jsonrpc.Options{Handler: echoHandler})
	const workers, calls = 32, 50
	var wg sync.WaitGroup
	errs := make(chan error, workers*calls)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls; i++ {
				want := fmt.Sprintf("%d/%d", w, i)
				var got struct{ V string }
				if err := a.Call(context.Background(), "echo", map[string]string{"V": want}, &got); err != nil {
					errs <- err
					return
				}
				if got.V != want {
					errs <- fmt.Errorf("call %s got the response for %s", want, got.V)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestNestedCallbacksWhileServing(t *testing.T) {
	var served int
	var serverConn *jsonrpc.Conn
	host := jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		served++ // called only from the extension's one request, sequentially
		return map[string]int{"n": served}, nil
	}}
	ext := jsonrpc.Options{IDPrefix: "go:", Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		for i := 0; i < 1000; i++ {
			var r struct{ N int }
			if err := serverConn.Call(ctx, "kv.get", map[string]int{"i": i}, &r); err != nil {
				return nil, err
			}
			if r.N != i+1 {
				return nil, fmt.Errorf("callback %d answered %d", i, r.N)
			}
		}
		return map[string]int{"calls": 1000}, nil
	}}
	h, e := connPair(t, host, ext)
	serverConn = e
	var res struct{ Calls int }
	if err := h.Call(context.Background(), "tool/call", map[string]any{}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Calls != 1000 || served != 1000 {
		t.Fatalf("calls=%d served=%d, want 1000", res.Calls, served)
	}
}

func TestHandlerErrorsCrossVerbatim(t *testing.T) {
	mux := jsonrpc.NewMux()
	mux.Handle("authored", func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, fmt.Errorf("wrapped: %w", jsonrpc.NewError(4001, "quota exceeded", map[string]int{"retry_ms": 5}))
	})
	mux.Handle("plain", func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, errors.New("disk on fire")
	})
	mux.Handle("panics", func(context.Context, *jsonrpc.Request) (any, error) {
		panic("boom")
	})
	a, _ := connPair(t, jsonrpc.Options{}, jsonrpc.Options{Handler: mux.Serve})
	ctx := context.Background()

	var we *jsonrpc.Error
	err := a.Call(ctx, "authored", nil, nil)
	if !errors.As(err, &we) || we.Code != 4001 || we.Message != "quota exceeded" || string(we.Data) != `{"retry_ms":5}` {
		t.Fatalf("authored error = %#v", err)
	}
	if errors.Is(err, jsonrpc.ErrTransport) {
		t.Fatal("an authored error must not look like a transport error")
	}
	err = a.Call(ctx, "plain", nil, nil)
	if !errors.Is(err, jsonrpc.ErrInternal) || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("plain error = %v", err)
	}
	err = a.Call(ctx, "panics", nil, nil)
	if !errors.Is(err, jsonrpc.ErrInternal) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panic = %v", err)
	}
	err = a.Call(ctx, "nope", nil, nil)
	if !errors.Is(err, jsonrpc.ErrMethodNotFound) || !errors.As(err, &we) || string(we.Data) != `{"method":"nope"}` {
		t.Fatalf("unknown method = %v", err)
	}
}

func TestResultOverLimitIsAnsweredInternalError(t *testing.T) {
	big := strings.Repeat("x", 2000)
	a, _ := connPair(t, jsonrpc.Options{}, jsonrpc.Options{MaxMessageBytes: 1024, Handler: func(context.Context, *jsonrpc.Request) (any, error) {
		return map[string]string{"text": big}, nil
	}})
	err := a.Call(context.Background(), "big", nil, nil)
	if !errors.Is(err, jsonrpc.ErrInternal) || !strings.Contains(err.Error(), "1024-byte message limit") || !strings.Contains(err.Error(), "2045 bytes") {
		t.Fatalf("err = %v", err)
	}
	// The connection is still healthy afterwards.
	if err := a.Call(context.Background(), "big", nil, nil); !errors.Is(err, jsonrpc.ErrInternal) {
		t.Fatalf("second call: %v", err)
	}
}

func TestCallRefusesBadParamsWithoutSending(t *testing.T) {
	a, p := newRawPeer(t, jsonrpc.Options{})
	if err := a.Call(context.Background(), "m", []int{1}, nil); err == nil || !strings.Contains(err.Error(), "must encode to a JSON object") {
		t.Fatalf("array params: %v", err)
	}
	if err := a.Call(context.Background(), "m", json.RawMessage(`{"a":`), nil); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Fatalf("broken raw params: %v", err)
	}
	if err := a.Notify("m", strings.Repeat("x", 2<<20)); err == nil {
		t.Fatal("oversized notification was accepted")
	}
	// Raw params with newlines are compacted into one line.
	if err := a.Notify("m", json.RawMessage("{\n\"a\": 1\n}")); err != nil {
		t.Fatal(err)
	}
	f := p.frame()
	if f["method"] != "m" || f["params"].(map[string]any)["a"] != 1.0 {
		t.Fatalf("frame = %v", f)
	}
	if _, ok := f["id"]; ok {
		t.Fatalf("a notification carries an id: %v", f)
	}
}

func TestRequestIDIsAmbient(t *testing.T) {
	a, p := newRawPeer(t, jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		id, ok := jsonrpc.RequestIDFromContext(ctx)
		if !ok || id != req.ID {
			return nil, fmt.Errorf("ambient id %v, %v; want %v", id, ok, req.ID)
		}
		return map[string]string{"id": id.String()}, nil
	}})
	_ = a
	p.send(`{"jsonrpc":"2.0","id":"h:7","method":"x"}`)
	f := p.frame()
	if f["id"] != "h:7" || f["result"].(map[string]any)["id"] != "h:7" {
		t.Fatalf("frame = %v", f)
	}
	if _, ok := jsonrpc.RequestIDFromContext(context.Background()); ok {
		t.Fatal("an id outside a handler")
	}
}

func TestNotificationsArriveInOrder(t *testing.T) {
	got := make(chan string, 100)
	_, p := newRawPeer(t, jsonrpc.Options{Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		if !req.IsNotification() {
			return nil, errors.New("expected notifications only")
		}
		got <- string(req.Params)
		return nil, nil
	}})
	for i := 0; i < 50; i++ {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","method":"turn/started","params":{"i":%d}}`, i))
		// Sequential sends: each write completes before the next starts.
		if want := fmt.Sprintf(`{"i":%d}`, i); <-got != want {
			t.Fatalf("notification %d out of order", i)
		}
	}
}
