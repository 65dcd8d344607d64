package octet_test

import (
	"context"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestSendValidatesWithTheSchema: the KV batch bound (1..KV_MAX_BATCH writes) and the key
// bound are no hand-written checks any more; Send refuses them with the generated validator,
// as -32602 naming the params path, and nothing reaches the host. A write within bounds
// does, with the namespace defaulted to the extension's own name.
func TestSendValidatesWithTheSchema(t *testing.T) {
	put := func(n int) []protocol.KVWrite {
		w := make([]protocol.KVWrite, n)
		for i := range w {
			w[i] = protocol.KVWrite{KVPut: &protocol.KVPut{Namespace: "sdk-test", Key: "k", Value: []byte("1")}}
		}
		return w
	}
	var refusals []string
	h := serving(t, func(ctx context.Context, ext *octet.Extension) (any, error) {
		for _, bad := range []func() error{
			func() error { _, err := ext.KV.Commit(ctx, put(0)); return err },
			func() error { _, err := ext.KV.Commit(ctx, put(protocol.KVMaxBatch+1)); return err },
			func() error { _, err := ext.KV.Get(ctx, ""); return err },
			func() error { _, err := ext.KV.Get(ctx, strings.Repeat("k", protocol.KVKeyMaxBytes+1)); return err },
			func() error { _, err := ext.KV.Get(ctx, "k", octet.KVGetOptions{}, octet.KVGetOptions{}); return err },
		} {
			err := bad()
			var rpc *jsonrpc.Error
			if !asError(err, &rpc) || rpc.Code != protocol.CodeInvalidParams {
				return nil, octet.Fail(1, "not refused as invalid params: "+errString(err), nil)
			}
			refusals = append(refusals, rpc.Message)
		}
		if _, err := ext.KV.Commit(ctx, put(protocol.KVMaxBatch)); err != nil {
			return nil, err
		}
		got, err := ext.KV.Get(ctx, "k")
		return string(got.Value), err
	}, octettest.Script{})
	res, err := h.CallTool(context.Background(), "run", nil)
	if err != nil || res.StructuredContent["v"] != "1" {
		t.Fatalf("%+v %v", res, err)
	}
	if n := len(h.Received(protocol.MethodKVCommit)); n != 1 {
		t.Errorf("%d commits reached the host, want the one within bounds", n)
	}
	if got := h.Received(protocol.MethodKVGet); len(got) != 1 || got[0]["params"].(map[string]any)["namespace"] != "sdk-test" {
		t.Errorf("gets that reached the host: %v (want one, in the extension's own namespace)", got)
	}
	if !strings.Contains(refusals[0], "$.writes") || !strings.Contains(refusals[2], "$.key") {
		t.Errorf("refusals do not name the params path: %q", refusals)
	}
}

// TestSendChecksTheDescriptor: a descriptor's version and feature are checked before
// anything is encoded (the generic Send, called directly).
func TestSendChecksTheDescriptor(t *testing.T) {
	ext := testExtension(octet.Options{})
	octettest.Start(t, ext, octettest.Options{Manifest: manifest(), OptionalFeatures: []string{}})
	_, err := octet.Send(context.Background(), ext, protocol.RequestKVGet, protocol.KVGetParams{Namespace: "sdk-test", Key: "k"})
	if err == nil || !strings.Contains(err.Error(), `negotiated feature "kv"`) {
		t.Fatalf("Send without the kv feature: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
