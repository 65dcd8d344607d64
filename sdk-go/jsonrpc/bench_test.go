package jsonrpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// reportLatency adds p50 and p99 of the recorded round trips to the benchmark.
func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

const benchParams = `{"value":"hello, extension","n":42}`

var rawParams = json.RawMessage(benchParams)

// BenchmarkEchoConn: a Conn calling a Conn in a child process over real pipes.
func BenchmarkEchoConn(b *testing.B) {
	benchConnEcho(b, "echo")
}

// BenchmarkEchoConnToFloor: a Conn calling the hand-written floor child, to show
// which side any overhead is on.
func BenchmarkEchoConnToFloor(b *testing.B) {
	benchConnEcho(b, "floor")
}

func benchConnEcho(b *testing.B, mode string) {
	_, fromChild, toChild := startChild(b, mode)
	c := jsonrpc.NewConn(fromChild, toChild, jsonrpc.Options{})
	defer c.Close()
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var out struct {
			Value string `json:"value"`
			N     int    `json:"n"`
		}
		if err := c.Call(ctx, "echo", rawParams, &out); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkEchoFloor: hand-written JSON lines on both sides, the least possible
// work per round trip over the same pipes.
func BenchmarkEchoFloor(b *testing.B) {
	_, fromChild, toChild := startChild(b, "floor")
	in := bufio.NewReader(fromChild)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"echo","params":%s}`+"\n", i+1, benchParams)
		if _, err := toChild.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := in.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkCallback: extension-to-host calls made while serving one host request;
// one op is one nested callback round trip.
func BenchmarkCallback(b *testing.B) {
	_, fromChild, toChild := startChild(b, "echo")
	c := jsonrpc.NewConn(fromChild, toChild, jsonrpc.Options{Handler: func(context.Context, *jsonrpc.Request) (any, error) {
		return struct{}{}, nil
	}})
	defer c.Close()
	b.ResetTimer()
	var res struct{ Calls int }
	if err := c.Call(context.Background(), "callbacks", map[string]int{"N": b.N}, &res); err != nil {
		b.Fatal(err)
	}
	if res.Calls != b.N {
		b.Fatalf("calls = %d", res.Calls)
	}
}

// BenchmarkEchoInMemory: two Conns over io.Pipe, the transport's own cost.
func BenchmarkEchoInMemory(b *testing.B) {
	a, _ := connPair(b, jsonrpc.Options{}, jsonrpc.Options{Handler: echoHandler})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := a.Call(ctx, "echo", rawParams, nil); err != nil {
			b.Fatal(err)
		}
	}
}
