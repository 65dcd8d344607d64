package bridge

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stdioConn reads what the SDK's stdio connection reads: requests, notifications,
// results and errors, one a line, lines longer than its buffer whole, and io.EOF at the
// end; a frame that is not JSON-RPC 2.0 is an error naming why.
func TestStdioConnReadsMessages(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}` + "\n" +
		"\n" +
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}` + "\n" +
		`{"jsonrpc":"2.0","id":"a","method":"elicitation/create","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad"}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"result":{"text":"` + long + `"}}` // no final newline
	c := &stdioConn{r: bufio.NewReaderSize(strings.NewReader(in), 16)}
	ctx := context.Background()
	read := func() jsonrpc.Message {
		t.Helper()
		m, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	if r, ok := read().(*jsonrpc.Response); !ok || r.ID.Raw() != int64(1) || string(r.Result) != `{"content":[]}` || r.Error != nil {
		t.Errorf("result: %#v", r)
	}
	if n, ok := read().(*jsonrpc.Request); !ok || n.Method != "notifications/progress" || n.ID.IsValid() {
		t.Errorf("notification: %#v", n)
	}
	if q, ok := read().(*jsonrpc.Request); !ok || q.Method != "elicitation/create" || q.ID.Raw() != "a" {
		t.Errorf("request: %#v", q)
	}
	r, ok := read().(*jsonrpc.Response)
	var we *jsonrpc.Error
	if !ok || !errors.As(r.Error, &we) || we.Code != -32602 || we.Message != "bad" {
		t.Errorf("error response: %#v", r)
	}
	if r, ok := read().(*jsonrpc.Response); !ok || !strings.Contains(string(r.Result), long) {
		t.Errorf("a line longer than the buffer: %#v", r)
	}
	if _, err := c.Read(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("at the end: %v, want io.EOF", err)
	}
	for _, bad := range []string{`{"jsonrpc":"1.0","id":1,"result":{}}`, `{"jsonrpc":"2.0","result":{}}`, `not json`, `{"jsonrpc":"2.0","id":true,"result":{}}`} {
		c := &stdioConn{r: bufio.NewReader(strings.NewReader(bad + "\n"))}
		if m, err := c.Read(ctx); err == nil {
			b, _ := json.Marshal(m)
			t.Errorf("%s read as %s", bad, b)
		}
	}
}
