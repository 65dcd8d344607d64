package octettest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestEveryMethodAnExtensionSendsHasARoute: the fake host's table covers the registry's
// extension-to-host methods, no more and no less, so a method added to the schema without a
// row here fails this test.
func TestEveryMethodAnExtensionSendsHasARoute(t *testing.T) {
	table := (&services{}).routes()
	sent := 0
	for _, m := range protocol.Methods {
		if m.Direction != protocol.DirectionExtensionToHost {
			continue
		}
		sent++
		r, ok := table[m.Name]
		if !ok {
			t.Errorf("%s has no route", m.Name)
			continue
		}
		if r.notification != (m.Kind == protocol.KindNotification) {
			t.Errorf("%s: route kind does not match the registry's %s", m.Name, m.Kind)
		}
	}
	if len(table) != sent {
		t.Errorf("%d routes for %d methods", len(table), sent)
	}
}

// TestParamsAreValidatedWithTheSchema: the fake refuses what the real host refuses (an empty
// KV key, a commit of no writes) as -32602 before a handler runs, and serves a valid call.
func TestParamsAreValidatedWithTheSchema(t *testing.T) {
	h := &Host{opts: Options{APIVersion: "0.4", Manifest: map[string]any{"name": "x"}}}
	s := newServices(&h.opts.Script, h)
	call := func(method, params string) error {
		_, err := s.handle(context.Background(), &jsonrpc.Request{Method: method, ID: jsonrpc.IntID(1), Params: json.RawMessage(params)})
		return err
	}
	for _, bad := range []struct{ method, params string }{
		{protocol.MethodKVGet, `{"namespace":"x","key":""}`},
		{protocol.MethodKVCommit, `{"preconditions":[],"writes":[]}`},
		{protocol.MethodKVGet, `{"namespace":"x","key":"k","extra":1}`},
	} {
		var rpc *jsonrpc.Error
		if err := call(bad.method, bad.params); !asRPC(err, &rpc) || rpc.Code != protocol.CodeInvalidParams {
			t.Errorf("%s %s: %v, want -32602", bad.method, bad.params, err)
		}
	}
	if err := call(protocol.MethodKVGet, `{"namespace":"x","key":"k"}`); err != nil {
		t.Errorf("a valid get: %v", err)
	}
}

func asRPC(err error, out **jsonrpc.Error) bool {
	e, ok := err.(*jsonrpc.Error)
	*out = e
	return ok
}
