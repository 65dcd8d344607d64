package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
)

// BenchmarkStartInProcess: what this example's own start costs inside one process,
// from octet.New to the initialize answer (New, the tool's definition with its schema
// derived and compiled, the negotiation and the answer's encoding), without the
// process start and runtime init that BenchmarkStartToReady includes. It runs warm:
// one-time costs of a process's first start (encoding/json's and reflect's type
// caches, a lazily compiled pattern, stack growth) are paid by the first iteration
// only, so B/op and allocs/op are the SDK's own per-start allocations; a real start
// adds those caches (count them with GODEBUG=inittrace=1 and runtime.MemStats in a
// real process). No collection runs before the first 4 MiB, so every byte a start
// allocates stays resident (issue 17).
//
//	go test -run '^$' -bench StartInProcess -benchmem ./examples/go/hello-world
func BenchmarkStartInProcess(b *testing.B) {
	init := initializeLine(b, filepath.Join(kitRoot, "examples/go/hello-world", "extension.toml"))
	quiet := slog.New(slog.DiscardHandler)
	for b.Loop() {
		ext := octet.New(octet.Options{APIVersion: "0.4", Logger: quiet})
		octet.Tool(ext, octet.ToolSpec{Name: "hello_world", Description: "Greet someone"},
			func(ctx context.Context, args helloArgs) (octet.Result, error) {
				return octet.Text("Hello, " + args.Name + "!"), nil
			})
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- ext.Serve(context.Background(), inR, outW) }()
		go func() { _, _ = inW.Write(init) }()
		line, err := bufio.NewReader(outR).ReadString('\n')
		if err != nil || !strings.Contains(line, `"result"`) {
			b.Fatalf("initialize: %v %.300s", err, line)
		}
		_ = inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
}
