package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/octet-kit/octet/host/store"
)

// BenchmarkStoreKVCommit measures the store alone (one SQLite transaction
// per batch, WAL, synchronous=NORMAL); compare with the services
// benchmark to see what decoding and validation cost.
func BenchmarkStoreKVCommit(b *testing.B) {
	for _, n := range []int{1, 256} {
		b.Run(fmt.Sprintf("writes=%d", n), func(b *testing.B) {
			st := open(b, b.TempDir())
			writes := make([]store.KVWrite, n)
			for i := range writes {
				writes[i] = store.KVWrite{Namespace: "bench", Key: fmt.Sprintf("k%d", i), Value: []byte(`{"n":1,"text":"some value of ordinary size"}`), Canonical: true}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := st.KVCommit(context.Background(), nil, writes); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
		})
	}
}
