package octet_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

// negotiationVector is one schema/vectors/negotiation/answer-*.json: what the host offers,
// the manifest it sends and the handlers the extension registered, and the exact answer
// (protocol block) or refusal every SDK must give.
type negotiationVector struct {
	Kind                  string              `json:"kind"`
	Pinned                string              `json:"pinned"`
	MaxConcurrentRequests int                 `json:"max_concurrent_requests"`
	Handlers              map[string][]string `json:"handlers"`
	Offer                 map[string]any      `json:"offer"`
	Manifest              map[string]any      `json:"manifest"`
	Expect                struct {
		Protocol json.RawMessage `json:"protocol"`
		Error    json.RawMessage `json:"error"`
	} `json:"expect"`
}

func TestNegotiationVectors(t *testing.T) {
	files, _ := filepath.Glob("../schema/vectors/negotiation/answer-*.json")
	if len(files) < 10 {
		t.Fatalf("negotiation vectors not found (%d)", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var v negotiationVector
			if err := json.Unmarshal(raw, &v); err != nil {
				t.Fatal(err)
			}
			ext := octet.New(octet.Options{APIVersion: v.Pinned, MaxConcurrentRequests: v.MaxConcurrentRequests,
				Logger: octet.NewLogger(os.Stderr, 100)})
			for _, ev := range v.Handlers["lifecycle"] {
				ext.OnLifecycle(ev, func(context.Context, octet.LifecycleNotification) {})
			}
			h := octettest.Start(t, ext, octettest.Options{Manifest: v.Manifest, SkipInitialize: true})
			params := map[string]any{
				"octet_version": "0.8.0",
				"extension": map[string]any{"name": v.Manifest["name"], "version": v.Manifest["version"],
					"dir": "/ext", "manifest_path": "/ext/extension.toml", "source": "explicit"},
				"manifest":  v.Manifest,
				"workspace": map[string]any{"root": "/workspace", "trusted": true},
			}
			for k, x := range v.Offer {
				params[k] = x
			}
			var res map[string]any
			err = h.Call(context.Background(), "initialize", params, &res)
			if v.Expect.Error != nil {
				var we *jsonrpc.Error
				if !errors.As(err, &we) {
					t.Fatalf("answered %v, want the refusal %s", res, v.Expect.Error)
				}
				got, _ := json.Marshal(map[string]any{"code": we.Code, "message": we.Message, "data": we.Data})
				sameJSON(t, got, v.Expect.Error)
				return
			}
			if err != nil {
				t.Fatalf("refused: %v, want the answer %s", err, v.Expect.Protocol)
			}
			got, _ := json.Marshal(res["protocol"])
			sameJSON(t, got, v.Expect.Protocol)
		})
	}
}

func sameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
