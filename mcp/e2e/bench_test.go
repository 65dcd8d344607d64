package e2e

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
)

// The bridge's cost per call is BenchmarkCallBridged's p50 minus BenchmarkCallDirect's:
// the same tool of the same MCP Go SDK server called by an MCP client directly, and by
// the octet reference host through octet-mcp. Both report p50 and p99 per call.
// Run: go test ./e2e -run '^$' -bench . -benchtime 2000x (go run mage.go benchMCP).

func reportPercentiles(b *testing.B, d []time.Duration) {
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds()), "p99-µs")
}

func BenchmarkCallDirect(b *testing.B) {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: exec.Command(filepath.Join(bin, "testserver"))}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"name":"x"}`)}
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, d)
}

// bridged starts octet-mcp with the test server in the reference host and waits until
// its catalog is published.
func bridged(b *testing.B) (*host.Extension, func()) {
	var d time.Duration
	return bridgedTimed(b, &d)
}

// bridgedTimed is bridged, adding the time from Open to the end of octet-mcp's handshake
// to handshake.
func bridgedTimed(b *testing.B, handshake *time.Duration) (*host.Extension, func()) {
	b.Helper()
	t0 := time.Now()
	dir := bridgeDir(b, map[string]any{"test": map[string]any{"command": filepath.Join(bin, "testserver")}})
	ctx := context.Background()
	h, err := reference.Open(ctx, reference.Options{Host: host.Options{StateDir: b.TempDir(), Workspace: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	ext, err := h.StartDir(ctx, dir)
	if err != nil {
		b.Fatal(err)
	}
	*handshake += time.Since(t0)
	if _, err := ext.CallTool(ctx, "mcp_status", json.RawMessage(`{"wait":true}`)); err != nil {
		b.Fatal(err)
	}
	return ext, func() { h.Close() }
}

func BenchmarkCallBridged(b *testing.B) {
	ext, done := bridged(b)
	defer done()
	ctx := context.Background()
	args := json.RawMessage(`{"name":"x"}`)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := ext.CallTool(ctx, "test_echo", args); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, d)
}

// BenchmarkColdStart: from starting octet-mcp in the host until the server's tools are
// published and the first call answered; BenchmarkColdStartDirect is the MCP server's
// own start, handshake and first call.
func BenchmarkColdStart(b *testing.B) {
	var hostStart, published time.Duration
	for range b.N {
		t0 := time.Now()
		ext, done := bridgedTimed(b, &hostStart)
		published += time.Since(t0)
		if _, err := ext.CallTool(context.Background(), "test_echo", json.RawMessage(`{"name":"x"}`)); err != nil {
			st, _ := ext.CallTool(context.Background(), "mcp_status", json.RawMessage(`{}`))
			b.Fatalf("%v; status %s", err, st)
		}
		b.StopTimer()
		done()
		b.StartTimer()
	}
	b.ReportMetric(float64(hostStart.Milliseconds())/float64(b.N), "handshake-ms")
	b.ReportMetric(float64(published.Milliseconds())/float64(b.N), "published-ms")
}

func BenchmarkColdStartDirect(b *testing.B) {
	for range b.N {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(),
			&mcp.CommandTransport{Command: exec.Command(filepath.Join(bin, "testserver"))}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"name":"x"}`)}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cs.Close()
		b.StartTimer()
	}
}

// BenchmarkColdStartHostBaseline is the same host start with the Go hello-world example
// instead of octet-mcp: what any extension's cold start costs before the bridge's own.
func BenchmarkColdStartHostBaseline(b *testing.B) {
	ctx := context.Background()
	for range b.N {
		h, err := reference.Open(ctx, reference.Options{Host: host.Options{StateDir: b.TempDir(), Workspace: b.TempDir()}})
		if err != nil {
			b.Fatal(err)
		}
		ext, err := h.StartDir(ctx, exampleDir("go", "hello-world"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ext.CallTool(ctx, "hello_world", json.RawMessage(`{"name":"x"}`)); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		h.Close()
		b.StartTimer()
	}
}

// BenchmarkCallHostBaseline is one call from the reference host to the Go hello-world
// example: the octet hop every bridged call pays on top of the MCP one.
func BenchmarkCallHostBaseline(b *testing.B) {
	ctx := context.Background()
	h, err := reference.Open(ctx, reference.Options{Host: host.Options{StateDir: b.TempDir(), Workspace: b.TempDir()}})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ext, err := h.StartDir(ctx, exampleDir("go", "hello-world"))
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"name":"x"}`)
	d := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := ext.CallTool(ctx, "hello_world", args); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, d)
}

// BenchmarkBridgeAddedLatency interleaves a direct call and a bridged call of the same
// tool of the same server binary on every iteration, so both see the same machine load,
// and reports both p50s and their difference: the latency octet-mcp and the octet hop
// add per call.
func BenchmarkBridgeAddedLatency(b *testing.B) {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(),
		&mcp.CommandTransport{Command: exec.Command(filepath.Join(bin, "testserver"))}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	ext, done := bridged(b)
	defer done()
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"name":"x"}`)}
	args := json.RawMessage(`{"name":"x"}`)
	direct := make([]time.Duration, 0, b.N)
	via := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		if _, err := cs.CallTool(ctx, params); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := ext.CallTool(ctx, "test_echo", args); err != nil {
			b.Fatal(err)
		}
		direct, via = append(direct, t1.Sub(t0)), append(via, time.Since(t1))
	}
	b.StopTimer()
	slices.Sort(direct)
	slices.Sort(via)
	d, v := direct[len(direct)/2], via[len(via)/2]
	b.ReportMetric(float64(d.Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64(v.Microseconds()), "bridged-p50-µs")
	b.ReportMetric(float64((v - d).Microseconds()), "added-p50-µs")
}
