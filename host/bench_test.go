package host_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/manifest"
)

// BenchmarkToolCallRoundTrip measures one tool/call through the host to a real process
// over real pipes and back (fakeext's echo), including the catalog lookup.
func BenchmarkToolCallRoundTrip(b *testing.B) {
	base := b.TempDir()
	dir := testext.Write(b, filepath.Join(base, "exts"), testext.Ext{Name: "bench"})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	h := host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond})
	if _, err := h.Start(b.Context(), res.Entries, nil); err != nil {
		b.Fatal(err)
	}
	defer h.Shutdown()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := h.CallTool(b.Context(), "echo", []byte(`{"n":1}`)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartHandshakeShutdown measures a whole generation's life: spawn, initialize,
// and the bounded shutdown (shutdown request, EOF, exit, group cleanup).
func BenchmarkStartHandshakeShutdown(b *testing.B) {
	base := b.TempDir()
	dir := testext.Write(b, filepath.Join(base, "exts"), testext.Ext{Name: "life"})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	opts := host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := host.New(opts)
		if _, err := h.Start(b.Context(), res.Entries, []string{"life"}); err != nil {
			b.Fatal(err)
		}
		h.Shutdown()
	}
}

// BenchmarkCrashToTransportError measures how long a pending call takes to fail after the
// process dies mid-call (fakeext's crash tool exits without answering).
func BenchmarkCrashToTransportError(b *testing.B) {
	base := b.TempDir()
	dir := testext.Write(b, filepath.Join(base, "exts"), testext.Ext{Name: "dies"})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	opts := host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := host.New(opts)
		if _, err := h.Start(b.Context(), res.Entries, []string{"dies"}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, _, err := h.CallTool(b.Context(), "crash", []byte(`{"code":1}`)); err == nil {
			b.Fatal("crash call succeeded")
		}
		b.StopTimer()
		h.Shutdown()
	}
}

// BenchmarkToolCallResultChecks measures what the host's own checks cost per call, against
// the same process in the same run: echo (parameters {"type":"object"}, a text result
// judged against ToolResult) and strict (a closed parameters schema judged before sending).
func BenchmarkToolCallResultChecks(b *testing.B) {
	base := b.TempDir()
	dir := testext.Write(b, filepath.Join(base, "exts"), testext.Ext{Name: "bench", Tools: []string{"echo", "strict"}})
	res := discovery.Discover([]discovery.Root{{Dir: dir, Source: discovery.Explicit, Single: true}}, manifest.Options{OctetVersion: host.OctetVersion})
	h := host.New(host.Options{StateDir: filepath.Join(base, "state"), Workspace: base, TermGrace: 300 * time.Millisecond})
	if _, err := h.Start(b.Context(), res.Entries, nil); err != nil {
		b.Fatal(err)
	}
	defer h.Shutdown()
	for _, tool := range []string{"echo", "strict"} {
		for _, checked := range []bool{false, true} {
			name := tool + "/unchecked"
			if checked {
				name = tool + "/checked"
			}
			b.Run(name, func(b *testing.B) {
				host.SetUncheckedForBench(h, !checked)
				for b.Loop() {
					if _, _, err := h.CallTool(b.Context(), tool, []byte(`{"n":1}`)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
