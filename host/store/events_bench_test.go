package store_test

import (
	"context"
	"testing"
)

// BenchmarkAppendEvent measures recording host events (a notification's row) until they
// are committed: group commit, one transaction per batch of up to 512.
func BenchmarkAppendEvent(b *testing.B) {
	st := open(b, b.TempDir())
	payload := []byte(`{"message":"note 1234 of a flood","level":"info"}`)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := st.AppendEvent(ctx, int64(i), "notification", "bench", payload); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.FlushEvents(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
