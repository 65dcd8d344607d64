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
