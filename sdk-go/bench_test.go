package octet_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
)

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	}
}

// BenchmarkToolCallProcess: a tool/call through the whole SDK (pool, schema
// validation, result shaping) in a child process over real pipes.
func BenchmarkToolCallProcess(b *testing.B) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION=1")
	h := octettest.StartProcess(b, cmd, octettest.Options{Manifest: manifest()})
	ctx := context.Background()
	args := map[string]any{"value": "hello"}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := h.CallTool(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkCallbackProcess: kv.get callbacks made while serving one tool call, in a
// child process; one op is one nested round trip.
func BenchmarkCallbackProcess(b *testing.B) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION=1")
	h := octettest.StartProcess(b, cmd, octettest.Options{Manifest: manifest()})
	b.ResetTimer()
	if _, err := h.CallTool(context.Background(), "callback_n", map[string]any{"n": b.N}); err != nil {
		b.Fatal(err)
	}
}

// benchPublish publishes bytes through the loopback host, which decodes (inline)
// or reads (path) them and verifies size and SHA-256.
func benchPublish(b *testing.B, size int, mode string) {
	dir := b.TempDir()
	b.Setenv("OCTET_EXTENSION_SCRATCH", dir)
	h := octettest.Start(b, testExtension(octet.Options{}), octettest.Options{Manifest: manifest(), Script: octettest.Script{ScratchDir: dir}})
	ctx := context.Background()
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.CallTool(ctx, "publish", map[string]any{"bytes": size, "mode": mode}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkArtifactInline256KiB: the largest inline artifact (base64 in one frame).
func BenchmarkArtifactInline256KiB(b *testing.B) { benchPublish(b, 256<<10, "inline") }

// BenchmarkArtifactPath16MiB: a 16 MiB scratch file, hashed by the SDK and
// verified by the loopback host (write + SHA-256 twice; no frame carries the bytes).
func BenchmarkArtifactPath16MiB(b *testing.B) { benchPublish(b, 16<<20, "path") }

// BenchmarkToolCallLoopback: the same tool call through the in-memory harness
// (both sides in one process), the SDK's own cost without pipes.
func BenchmarkToolCallLoopback(b *testing.B) {
	h := octettest.Start(b, testExtension(octet.Options{}), octettest.Options{Manifest: manifest()})
	ctx := context.Background()
	args := map[string]any{"value": "hello"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := h.CallTool(ctx, "echo", args); err != nil {
			b.Fatal(err)
		}
	}
}
