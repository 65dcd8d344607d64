package jsonrpc_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// selfEncoded encodes itself with AppendJSON; its fields, which json.Marshal would
// write, are left out, so a frame shows which encoder ran.
type selfEncoded struct {
	Text string
	Fail bool
}

func (s *selfEncoded) AppendJSON(dst []byte) ([]byte, error) {
	if s.Fail {
		return nil, errors.New("cannot encode")
	}
	return append(append(append(dst, `{"appended":"`...), s.Text...), `"}`...), nil
}

// A result with an AppendJSON method is encoded by it into the frame; a nil pointer to
// one is null, as json.Marshal writes it; an AppendJSON error and an oversized result are
// internal_error like any result that cannot be sent.
func TestResultAppendsItself(t *testing.T) {
	_, p := newRawPeer(t, jsonrpc.Options{MaxMessageBytes: 1024, Handler: func(_ context.Context, req *jsonrpc.Request) (any, error) {
		switch req.Method {
		case "nil":
			return (*selfEncoded)(nil), nil
		case "fail":
			return &selfEncoded{Fail: true}, nil
		case "big":
			return &selfEncoded{Text: strings.Repeat("x", 2000)}, nil
		}
		return &selfEncoded{Text: "hi"}, nil
	}})
	for i, tc := range []struct{ method, want string }{
		{"ok", `{"jsonrpc":"2.0","id":1,"result":{"appended":"hi"}}` + "\n"},
		{"nil", `{"jsonrpc":"2.0","id":2,"result":null}` + "\n"},
		{"fail", `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"result of \"fail\" could not be encoded: cannot encode"}}` + "\n"},
		{"big", `"message":"result of \"big\" is 2049 bytes, over the 1024-byte message limit; not sent"`},
	} {
		p.send(`{"jsonrpc":"2.0","id":` + strconv.Itoa(i+1) + `,"method":"` + tc.method + `"}`)
		if got := <-p.frames; !strings.Contains(got, tc.want) {
			t.Errorf("%s: frame %s, want %s", tc.method, got, tc.want)
		}
	}
}
