package octet_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
)

// The extension side of an echo tool/call alone, in this process: the SDK's test
// extension and the floor (floorExtension) each served over OS pipes and driven by
// rawDriver, which writes pre-encoded frames and reads answers without allocating.
// So allocs/op, B/op and a CPU profile are the server's (and the pipes' system
// calls), which the child-process benchmarks cannot show:
//
//	go test -run '^$' -bench ServeEcho -benchmem -cpuprofile /tmp/serve.prof
//
// "inflight32" writes 32 requests at once and reads the 32 answers: the batch the
// host's 32-in-flight phase sends.

func BenchmarkServeEchoSDK(b *testing.B) {
	benchServeEcho(b, func(r io.Reader, w io.Writer) {
		_ = testExtension(octet.Options{}).Serve(context.Background(), r, w)
	}, 1)
}

func BenchmarkServeEchoFloor(b *testing.B) { benchServeEcho(b, floorExtension, 1) }

func BenchmarkServeEchoSDKInflight32(b *testing.B) {
	benchServeEcho(b, func(r io.Reader, w io.Writer) {
		_ = testExtension(octet.Options{}).Serve(context.Background(), r, w)
	}, 32)
}

func BenchmarkServeEchoFloorInflight32(b *testing.B) { benchServeEcho(b, floorExtension, 32) }

// selfCPU is the user and system CPU time this process has used so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rawDriver is the host side: one buffer for outgoing frames, one reader.
type rawDriver struct {
	w   *os.File
	r   *bufio.Reader
	buf []byte
	id  int64
}

const echoCallTail = `,"method":"tool/call","params":{"name":"echo","arguments":{"value":"octet-bench-0123456789"}}}` + "\n"

// calls writes n echo requests in one write and reads their n answers.
func (d *rawDriver) calls(b *testing.B, n int) {
	d.buf = d.buf[:0]
	for range n {
		d.id++
		d.buf = append(d.buf, `{"jsonrpc":"2.0","id":`...)
		d.buf = strconv.AppendInt(d.buf, d.id, 10)
		d.buf = append(d.buf, echoCallTail...)
	}
	if _, err := d.w.Write(d.buf); err != nil {
		b.Fatal(err)
	}
	for range n {
		line, err := d.r.ReadSlice('\n')
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Contains(line, []byte(`"octet-bench-0123456789"`)) {
			b.Fatalf("echo answered %s", line)
		}
	}
}

func benchServeEcho(b *testing.B, serve func(r io.Reader, w io.Writer), batch int) {
	inR, inW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve(inR, outW)
		outW.Close()
	}()
	d := &rawDriver{w: inW, r: bufio.NewReaderSize(outR, 1<<16)}
	init, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": map[string]any{
		"api_version": "0.4", "octet_version": "0.8.0",
		"extension": map[string]any{"name": "sdk-test", "version": "1.2.3", "dir": "/ext", "manifest_path": "/ext/extension.toml", "source": "explicit"},
		"manifest":  manifest(),
		"workspace": map[string]any{"root": "/workspace", "trusted": true},
		"protocol": map[string]any{"version": "0.4", "required_features": []string{"request_cancellation", "content_parts"},
			"optional_features": []string{}, "limits": map[string]any{"max_concurrent_requests": 64}},
	}})
	if _, err := inW.Write(append(init, '\n')); err != nil {
		b.Fatal(err)
	}
	if line, err := d.r.ReadSlice('\n'); err != nil || !bytes.Contains(line, []byte(`"result"`)) {
		b.Fatalf("initialize: %s %v", line, err)
	}
	for range 200 { // warm up: stacks, the runtime's heap, the schema's first compile
		d.calls(b, batch)
	}
	b.ReportAllocs()
	cpu0 := selfCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		d.calls(b, min(batch, b.N-i))
	}
	b.StopTimer()
	// The process's CPU time per call, server and driver together (the driver's share
	// is the same for the SDK and the floor): steadier than ns/op on a loaded machine.
	b.ReportMetric(float64((selfCPU()-cpu0).Nanoseconds())/1e3/float64(b.N), "cpu-µs/op")
	inW.Close()
	<-done
	inR.Close()
	outR.Close()
}
