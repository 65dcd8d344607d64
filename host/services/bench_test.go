package services_test

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// BenchmarkArtifactScratch16MiB measures scratch-path ingestion of a 16 MiB
// PNG: containment and type checks, streaming copy with SHA-256, size and
// digest verification, content-addressed publish and the SQLite row.
func BenchmarkArtifactScratch16MiB(b *testing.B) {
	e := newEnv(b, nil)
	data := make([]byte, 16<<20)
	rand.Read(data)
	copy(data, "\x89PNG\r\n\x1a\n")
	e.writeScratch("big.png", data)
	params, _ := json.Marshal(scratchParams("big.png", data))
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh generation per iteration keeps the per-generation quota
		// (64 MiB) out of the measurement.
		e.c.Generation = int64(i + 1)
		e.setActive(parent, services.Owner{SessionID: "sess-1", ExtensionInstanceID: "inst-1", ProcessGeneration: e.c.Generation}, true)
		if _, err := e.r.Handle(context.Background(), e.c, &jsonrpc.Request{ID: jsonrpc.IntID(1), Method: "artifact/publish", Params: params}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKVCommit measures kv.commit through the Router: decode, namespace
// checks, canonical JSON, one SQLite transaction, the call record.
func BenchmarkKVCommit(b *testing.B) {
	for _, writes := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("writes=%d", writes), func(b *testing.B) {
			e := newEnv(b, nil)
			reqs := make([]json.RawMessage, 64)
			for r := range reqs {
				ws := make([]any, writes)
				for w := range ws {
					ws[w] = put("demo", fmt.Sprintf("k%d/%d", r, w), map[string]any{"n": r, "text": "some value of ordinary size"})
				}
				reqs[r], _ = json.Marshal(map[string]any{"preconditions": []any{}, "writes": ws})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := e.r.Handle(context.Background(), e.c, &jsonrpc.Request{ID: jsonrpc.IntID(1), Method: "kv.commit", Params: reqs[i%len(reqs)]}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}
