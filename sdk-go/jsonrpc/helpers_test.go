package jsonrpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// TestMain lets the test binary act as a child process for the crash and benchmark
// tests: the parent re-executes itself with JSONRPC_TEST_CHILD set.
func TestMain(m *testing.M) {
	if mode := os.Getenv("JSONRPC_TEST_CHILD"); mode != "" {
		runChild(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// connPair connects two Conns through in-memory pipes.
func connPair(t testing.TB, a, b jsonrpc.Options) (*jsonrpc.Conn, *jsonrpc.Conn) {
	t.Helper()
	ar, bw := io.Pipe()
	br, aw := io.Pipe()
	ca := jsonrpc.NewConn(ar, aw, a)
	cb := jsonrpc.NewConn(br, bw, b)
	t.Cleanup(func() { ca.Close(); cb.Close() })
	return ca, cb
}

// rawPeer drives a Conn with hand-written lines and reads its frames.
type rawPeer struct {
	t      testing.TB
	w      io.WriteCloser
	frames chan string // read continuously, so the conn's writes never wait on the test
}

func newRawPeer(t testing.TB, opts jsonrpc.Options) (*jsonrpc.Conn, *rawPeer) {
	t.Helper()
	cr, pw := io.Pipe()
	pr, cw := io.Pipe()
	c := jsonrpc.NewConn(cr, cw, opts)
	t.Cleanup(func() { c.Close(); pw.Close(); pr.Close() })
	p := &rawPeer{t: t, w: pw, frames: make(chan string, 10000)}
	go func() {
		r := bufio.NewReaderSize(pr, 4<<20)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(p.frames)
				return
			}
			p.frames <- l
		}
	}()
	return c, p
}

func (p *rawPeer) send(line string) {
	p.t.Helper()
	// Writes happen on their own goroutine: an io.Pipe write blocks until read,
	// and the conn may be busy writing to us at the same moment.
	go func() { _, _ = io.WriteString(p.w, line+"\n") }()
}

// frame reads the next frame the conn wrote, failing after a generous bound so a
// broken implementation fails instead of hanging the suite.
func (p *rawPeer) frame() map[string]any {
	p.t.Helper()
	select {
	case line, ok := <-p.frames:
		if !ok {
			p.t.Fatal("the conn closed its output")
		}
		if strings.Count(line, "\n") != 1 {
			p.t.Fatalf("frame is not one line: %q", line)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			p.t.Fatalf("frame %q is not JSON: %v", line, err)
		}
		return m
	case <-time.After(10 * time.Second):
		p.t.Fatal("no frame within 10s")
	}
	return nil
}

// errorCode returns the error code of a response frame (0 when it is a result).
func errorCode(m map[string]any) int64 {
	e, ok := m["error"].(map[string]any)
	if !ok {
		return 0
	}
	return int64(e["code"].(float64))
}

// waitDone waits for the conn to stop, failing after a bound.
func waitDone(t testing.TB, c *jsonrpc.Conn) error {
	t.Helper()
	select {
	case <-c.Done():
		return c.Err()
	case <-time.After(10 * time.Second):
		t.Fatal("connection did not stop within 10s")
	}
	return nil
}

func echoHandler(ctx context.Context, req *jsonrpc.Request) (any, error) {
	return req.Params, nil
}

// cancelRequest is octet's cancellation, installed as the SDK and the host install it.
var cancelRequest = jsonrpc.Cancellation{Method: "$/cancelRequest"}
