package jsonrpc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// notes is n notification lines, each ending in a newline.
func notes(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","method":"note","params":{"i":%d}}`+"\n", i)
	}
	return b.String()
}

// With OrderedDelivery, what the peer wrote before its response is handled before the
// Call returns and before OnResponse runs: the notification handler is held until the
// reader has read the response, so an unordered conn would deliver it first.
func TestOrderedDeliveryHandlesEarlierNotificationsFirst(t *testing.T) {
	const n = 200
	respRead := make(chan struct{})
	var once sync.Once
	var handled, atResponse atomic.Int64
	atResponse.Store(-1)
	c, p := newRawPeer(t, jsonrpc.Options{
		OrderedDelivery: true,
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			<-respRead
			handled.Add(1)
			return nil, nil
		},
		OnFrame: func(dir jsonrpc.Direction, frame []byte) {
			if dir == jsonrpc.Inbound && bytes.Contains(frame, []byte(`"result"`)) {
				once.Do(func() { close(respRead) })
			}
		},
		OnResponse: func(jsonrpc.ID) { atResponse.Store(handled.Load()) },
	})
	type outcome struct {
		err     error
		handled int64
	}
	done := make(chan outcome, 1)
	go func() {
		var raw json.RawMessage
		err := c.Call(context.Background(), "work", nil, &raw)
		done <- outcome{err, handled.Load()}
	}()
	req := p.frame()
	id, _ := json.Marshal(req["id"])
	p.send(notes(n) + `{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}`) // one write
	got := <-done
	if got.err != nil {
		t.Fatal(got.err)
	}
	if got.handled != n || atResponse.Load() != n {
		t.Fatalf("Call returned after %d of %d notifications were handled (OnResponse after %d); want all first", got.handled, n, atResponse.Load())
	}
}

// Close with a drain handles every queued notification: the handler is held until the
// peer has seen EOF on its input, i.e. until Close has begun.
func TestCloseDrainsQueuedNotifications(t *testing.T) {
	const n = 100
	peerEOF := make(chan struct{})
	var handled atomic.Int64
	dropped := -1
	c, p := newRawPeer(t, jsonrpc.Options{
		NotificationDrain:      5 * time.Second,
		MaxQueuedNotifications: 8,
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			<-peerEOF
			handled.Add(1)
			return nil, nil
		},
		OnDropped: func(k int) { dropped = k },
	})
	written := make(chan struct{})
	go func() {
		_, _ = io.WriteString(p.w, notes(n)) // completes as the conn reads, during Close
		close(written)
	}()
	go func() {
		for range p.frames { // closed at EOF: Close closed the conn's writer
		}
		close(peerEOF)
		<-written
		p.w.Close() // the peer exits: EOF for the conn's reader
	}()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if handled.Load() != n || dropped != -1 {
		t.Fatalf("handled %d of %d notifications before Close returned (OnDropped %d); want all, none dropped", handled.Load(), n, dropped)
	}
}

// What the drain bound leaves unhandled is counted exactly, including what the peer
// wrote while the full queue held the reader back: handled + dropped == sent.
func TestCloseCountsDroppedNotifications(t *testing.T) {
	const n = 300
	var entered atomic.Int64
	reported := make(chan int, 2)
	c, p := newRawPeer(t, jsonrpc.Options{
		NotificationDrain:      20 * time.Millisecond,
		MaxQueuedNotifications: 4,
		Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			entered.Add(1)
			<-ctx.Done() // never finishes on its own: the drain bound runs out
			return nil, nil
		},
		OnDropped: func(k int) { reported <- k },
	})
	written := make(chan struct{})
	go func() {
		_, _ = p.w.Write([]byte(notes(n))) // blocks while the full queue pauses the reader
		p.w.Close()
		close(written)
	}()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	<-written
	select {
	case k := <-reported:
		if int64(k)+entered.Load() != n {
			t.Fatalf("dropped %d + handled %d != sent %d", k, entered.Load(), n)
		}
	default:
		t.Fatal("OnDropped was not called")
	}
	if len(reported) != 0 {
		t.Fatal("OnDropped was called twice")
	}
}
