package octet_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// floorExtension is the benchmark floor, as bench/floors/floor-go: the least code
// that answers initialize and the echo tool on the octet wire, one request at a
// time with no validation, pool or admission queue. Measured beside the SDK in the
// same run, it shows what the SDK's machinery costs.
func floorExtension(r io.Reader, w io.Writer) {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64*1024), 2<<20)
	for in.Scan() {
		var f struct {
			ID     json.RawMessage `json:"id,omitempty"`
			Method string          `json:"method,omitempty"`
			Params json.RawMessage `json:"params,omitempty"`
		}
		if json.Unmarshal(in.Bytes(), &f) != nil {
			os.Exit(2)
		}
		if f.Method == "" || f.ID == nil {
			continue
		}
		var result any
		switch f.Method {
		case "initialize":
			var p struct {
				APIVersion string `json:"api_version"`
			}
			_ = json.Unmarshal(f.Params, &p)
			result = map[string]any{"api_version": p.APIVersion, "name": "floor", "version": "0.1.0",
				"tools": []any{}, "commands": []any{}, "protocol": map[string]any{"version": p.APIVersion,
					"features": []string{"request_cancellation", "content_parts"}, "limits": map[string]any{"max_concurrent_requests": 64}}}
		case "tool/call":
			var c struct {
				Name      string `json:"name"`
				Arguments struct {
					Value json.RawMessage `json:"value"`
				} `json:"arguments"`
			}
			_ = json.Unmarshal(f.Params, &c)
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo"}},
				"structured_content": map[string]any{"value": c.Arguments.Value}}
		default:
			result = map[string]any{}
		}
		out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": f.ID, "result": result})
		_, _ = w.Write(append(out, '\n'))
		if f.Method == "shutdown" {
			return
		}
	}
}

// startBenchChild starts the test binary as the SDK test extension ("1") or the
// floor ("floor") and initializes it over a bare host-side jsonrpc.Conn, the same
// client for both.
func startBenchChild(b *testing.B, mode string) (*jsonrpc.Conn, int) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION="+mode, "OCTET_EXTENSION_API_VERSION=0.4")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	conn := jsonrpc.NewConn(r, w, jsonrpc.Options{Handler: func(context.Context, *jsonrpc.Request) (any, error) { return nil, nil }})
	b.Cleanup(func() {
		conn.Close()
		_ = cmd.Wait()
	})
	init := map[string]any{
		"api_version": "0.4", "octet_version": "0.8.0",
		"extension": map[string]any{"name": "sdk-test", "version": "1.2.3", "dir": "/ext", "manifest_path": "/ext/extension.toml", "source": "explicit"},
		"manifest":  manifest(),
		"workspace": map[string]any{"root": "/workspace", "trusted": true},
		"protocol": map[string]any{"version": "0.4", "required_features": []string{"request_cancellation", "content_parts"},
			"optional_features": []string{}, "limits": map[string]any{"max_concurrent_requests": 64}},
	}
	if err := conn.Call(context.Background(), "initialize", init, nil); err != nil {
		b.Fatalf("initialize %s: %v", mode, err)
	}
	return conn, cmd.Process.Pid
}

// cpuTime is the CPU time (user + system, all threads) process pid has used so
// far, from /proc (clock ticks of 10 ms: read it over many calls), or 0.
func cpuTime(pid int) time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
	f := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// BenchmarkEchoVsFloor: sequential echo tool calls to the SDK test extension and
// to the floor, both child processes over real pipes driven by the same client, in
// alternating blocks so both see the same machine load. One op is one call to
// each. Reports both p50s and sdk/floor, the ratio the Go target (1.25×) is about.
func BenchmarkEchoVsFloor(b *testing.B) {
	sdk, sdkPid := startBenchChild(b, "1")
	floor, floorPid := startBenchChild(b, "floor")
	ctx := context.Background()
	params := json.RawMessage(`{"name":"echo","arguments":{"value":"octet-bench-0123456789"}}`)
	call := func(c *jsonrpc.Conn) time.Duration {
		start := time.Now()
		var res json.RawMessage
		if err := c.Call(ctx, "tool/call", params, &res); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for range 500 { // warm up both (stacks, caches, the runtime's heap)
		call(sdk)
		call(floor)
	}
	const block = 1
	cpuSDK, cpuFloor := cpuTime(sdkPid), cpuTime(floorPid)
	latSDK, latFloor := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i += block {
		n := min(block, b.N-i)
		for range n {
			latSDK = append(latSDK, call(sdk))
		}
		for range n {
			latFloor = append(latFloor, call(floor))
		}
	}
	b.StopTimer()
	if c := cpuTime(sdkPid) - cpuSDK; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/1e3/float64(b.N), "sdk-cpu-µs/call")
	}
	if c := cpuTime(floorPid) - cpuFloor; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/1e3/float64(b.N), "floor-cpu-µs/call")
	}
	slices.Sort(latSDK)
	slices.Sort(latFloor)
	p50s, p50f := latSDK[len(latSDK)/2], latFloor[len(latFloor)/2]
	b.ReportMetric(float64(p50s.Nanoseconds())/1e3, "sdk-p50-µs")
	b.ReportMetric(float64(p50f.Nanoseconds())/1e3, "floor-p50-µs")
	b.ReportMetric(float64(p50s)/float64(p50f), "sdk/floor")
}
