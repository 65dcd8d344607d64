package reference_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/internal/testext"
	"github.com/octet-kit/octet/host/reference"
)

func openAt(t *testing.T, state, workspace string) *reference.Host {
	t.Helper()
	h, err := reference.Open(context.Background(), reference.Options{Host: host.Options{StateDir: state, Workspace: workspace}})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Reopening the same persisted session gets the same session id, under any spelling of
// its paths; another workspace sharing the state directory does not; two runs of one
// session still record apart.
func TestSessionIDLasts(t *testing.T) {
	base := t.TempDir()
	state, ws, other := filepath.Join(base, "state"), filepath.Join(base, "ws"), filepath.Join(base, "other")
	for _, d := range []string{state, ws, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(state, link); err != nil {
		t.Fatal(err)
	}
	h1 := openAt(t, state, ws)
	id, rec1 := h1.SessionID(), h1.RecordingID("x")
	h1.Close()
	if !regexp.MustCompile(`^session-[0-9a-f]{32}$`).MatchString(id) {
		t.Fatalf("session id %q", id)
	}
	h2 := openAt(t, link+"/", ws+"/.")
	again, rec2 := h2.SessionID(), h2.RecordingID("x")
	h2.Close()
	if again != id {
		t.Fatalf("reopened session %q, first %q", again, id)
	}
	if rec1 == rec2 || !strings.HasPrefix(rec2, id+"-") {
		t.Fatalf("recordings of two runs: %q and %q", rec1, rec2)
	}
	h3 := openAt(t, state, other)
	defer h3.Close()
	if h3.SessionID() == id {
		t.Fatal("another workspace got the same session id")
	}
	if id2, err := reference.DurableSessionID(state, ws); err != nil || id2 != id {
		t.Fatalf("DurableSessionID %q %v", id2, err)
	}
	if _, err := reference.DurableSessionID(filepath.Join(base, "missing"), ws); err == nil {
		t.Fatal("a state directory that does not exist has a canonical path?")
	}
}

// status carries the manifest digest (SHA-256 of extension.toml) and, for an installed
// bundle, the archive digest from its install record.
func TestStatusCarriesDigests(t *testing.T) {
	root := t.TempDir()
	plain := testext.Write(t, root, testext.Ext{Name: "plain"})
	bundled := testext.Write(t, root, testext.Ext{Name: "bundled", Tools: []string{"other"}})
	archive := strings.Repeat("ab", 32)
	record := `{"schema":1,"id":"bundled","version":"1.0.0","api_version":"0.4","requires_octet":"=` + host.OctetVersion +
		`","source":"/tmp/bundled.tar.gz","sha256":"` + archive + `","octet_version":"` + host.OctetVersion + `","installed_at":"2026-01-02T03:04:05Z"}`
	if err := os.WriteFile(filepath.Join(bundled, "install.json"), []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	h := openAt(t, t.TempDir(), root)
	defer h.Close()
	if _, err := h.StartDirs(context.Background(), plain, bundled); err != nil {
		t.Fatal(err)
	}
	for _, s := range h.Status() {
		data, err := os.ReadFile(filepath.Join(root, s.Name, "extension.toml"))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if s.ManifestDigest != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: manifest digest %q", s.Name, s.ManifestDigest)
		}
		want := ""
		if s.Name == "bundled" {
			want = archive
		}
		if s.BundleDigest != want {
			t.Errorf("%s: bundle digest %q, want %q", s.Name, s.BundleDigest, want)
		}
	}
}
