package services_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

var pngBytes = append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{1}, 100)...)

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

type published struct {
	ArtifactID string `json:"artifact_id"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
}

func (e *env) writeScratch(name string, data []byte) {
	e.t.Helper()
	p := filepath.Join(e.c.ScratchDir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		e.t.Fatal(err)
	}
}

func scratchParams(path string, data []byte) map[string]any {
	return map[string]any{"parent_request_id": 7, "mime_type": "image/png", "path": path, "size": len(data), "sha256": sum(data)}
}

func TestArtifactInlineAndResolve(t *testing.T) {
	e := newEnv(t, nil)
	var res published
	e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "name": "shot.png",
		"data": base64.StdEncoding.EncodeToString(pngBytes)}, &res)
	if res.Size != int64(len(pngBytes)) || res.SHA256 != sum(pngBytes) || !strings.HasPrefix(res.ArtifactID, "artifact:") {
		t.Fatalf("result %+v", res)
	}
	ctx := context.Background()
	got, ok := e.r.ResolveArtifact(ctx, e.c, defaultOwner(), res.ArtifactID)
	if !ok || got.MIMEType != "image/png" {
		t.Fatalf("resolve: %+v %v", got, ok)
	}
	b, err := os.ReadFile(got.Path)
	if err != nil || !bytes.Equal(b, pngBytes) {
		t.Fatalf("stored bytes differ: %v", err)
	}
	if !strings.Contains(got.Path, filepath.Join("artifacts", "sha256", res.SHA256[:2], res.SHA256[2:])) {
		t.Errorf("blob path %s is not content-addressed", got.Path)
	}
	// Foreign owner, stale generation, other extension, unknown id: unavailable.
	other := defaultOwner()
	other.SessionID = "sess-2"
	if _, ok := e.r.ResolveArtifact(ctx, e.c, other, res.ArtifactID); ok {
		t.Error("resolved for another session")
	}
	next := *e.c
	next.Generation = 2
	if _, ok := e.r.ResolveArtifact(ctx, &next, services.Owner{SessionID: "sess-1", ExtensionInstanceID: "inst-1", ProcessGeneration: 2}, res.ArtifactID); ok {
		t.Error("resolved in a later generation")
	}
	foreign := *e.c
	foreign.Principal = "evil@" + strings.Repeat("0", 64)
	if _, ok := e.r.ResolveArtifact(ctx, &foreign, defaultOwner(), res.ArtifactID); ok {
		t.Error("resolved for another extension")
	}
	if _, ok := e.r.ResolveArtifact(ctx, e.c, defaultOwner(), "artifact:nope"); ok {
		t.Error("resolved an unknown id")
	}
}

func TestArtifactInlineInvalid(t *testing.T) {
	e := newEnv(t, nil)
	big := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 262144)...)
	cases := []struct {
		name   string
		params map[string]any
		code   int64
		want   string
	}{
		{"not a MIME type", map[string]any{"parent_request_id": 7, "mime_type": "x", "data": "PGI+"}, -32602, "not a MIME type"},
		{"uppercase MIME type", map[string]any{"parent_request_id": 7, "mime_type": "Image/PNG", "data": base64.StdEncoding.EncodeToString(pngBytes)}, -32602, "not a MIME type"},
		{"MIME parameters", map[string]any{"parent_request_id": 7, "mime_type": "text/plain; charset=utf-8", "data": "PGI+"}, -32602, "not a MIME type"},
		{"empty subtype", map[string]any{"parent_request_id": 7, "mime_type": "text/", "data": "PGI+"}, -32602, "not a MIME type"},
		{"MIME name over 127", map[string]any{"parent_request_id": 7, "mime_type": "application/" + strings.Repeat("x", 128), "data": "PGI+"}, -32602, "not a MIME type"},
		{"signature mismatch", map[string]any{"parent_request_id": 7, "mime_type": "image/jpeg", "data": base64.StdEncoding.EncodeToString(pngBytes)}, -32602, "signature"},
		{"bad base64", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": "!!!"}, -32602, "base64"},
		{"too big", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": base64.StdEncoding.EncodeToString(big)}, -32602, "more than"},
		{"both forms", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": "", "path": "a", "size": 1, "sha256": sum(nil)}, -32602, "exactly one"},
		{"neither form", map[string]any{"parent_request_id": 7, "mime_type": "image/png"}, -32602, "exactly one"},
		{"size with data", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": "", "size": 0}, -32602, "path form"},
		{"no parent", map[string]any{"mime_type": "image/png", "data": ""}, -32602, "parent_request_id"},
		{"inactive parent", map[string]any{"parent_request_id": 8, "mime_type": "image/png", "data": base64.StdEncoding.EncodeToString(pngBytes)}, -32002, "not a host request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := e.fails("artifact/publish", tc.params, tc.code)
			if !strings.Contains(err.Message, tc.want) {
				t.Fatalf("message %q does not mention %q", err.Message, tc.want)
			}
		})
	}
}

// Any valid MIME type is accepted; only the eight media types have their bytes
// checked, so other types publish whatever bytes they carry.
func TestArtifactAnyMIMEType(t *testing.T) {
	e := newEnv(t, nil)
	longest := strings.Repeat("a", 127) + "/" + strings.Repeat("b", 127) // 255 bytes, each name at RFC 6838's 127
	for _, mime := range []string{"application/octet-stream", "text/html", "application/vnd.example+json", "text/x-c", longest} {
		var res published
		e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": mime, "data": base64.StdEncoding.EncodeToString([]byte("<b>not a signature</b>"))}, &res)
		a, ok := e.r.ResolveArtifact(context.Background(), e.c, defaultOwner(), res.ArtifactID)
		if !ok || a.MIMEType != mime {
			t.Fatalf("%s: resolved %+v %v", mime, a, ok)
		}
	}
	// The path form too: the conformance fixture publishes pattern bytes this way.
	data := []byte{0, 1, 2, 250}
	e.writeScratch("fixture.bin", data)
	p := scratchParams("fixture.bin", data)
	p["mime_type"] = "application/octet-stream"
	e.ok("artifact/publish", p, nil)
}

func TestArtifactScratch(t *testing.T) {
	e := newEnv(t, nil)
	e.writeScratch("shots/a.png", pngBytes)
	var res published
	e.ok("artifact/publish", scratchParams("shots/a.png", pngBytes), &res)
	if res.SHA256 != sum(pngBytes) {
		t.Fatalf("sha %s", res.SHA256)
	}
	// A symlink that stays inside the scratch dir is fine.
	if err := os.Symlink("shots/a.png", filepath.Join(e.c.ScratchDir, "link.png")); err != nil {
		t.Fatal(err)
	}
	e.ok("artifact/publish", scratchParams("link.png", pngBytes), nil)

	outside := filepath.Join(t.TempDir(), "secret.png")
	os.WriteFile(outside, pngBytes, 0o600)
	os.Symlink(outside, filepath.Join(e.c.ScratchDir, "escape.png"))
	os.Symlink(filepath.Dir(outside), filepath.Join(e.c.ScratchDir, "dirlink"))
	os.Mkdir(filepath.Join(e.c.ScratchDir, "adir"), 0o700)
	e.writeScratch("wav.bin", []byte("RIFF\x00\x00\x00\x00WAVEfmt "))
	if err := syscall.Mkfifo(filepath.Join(e.c.ScratchDir, "pipe.png"), 0o600); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name   string
		params map[string]any
		want   string
	}{
		{"traversal", scratchParams("../x.png", pngBytes), "relative path inside"},
		{"absolute", scratchParams(outside, pngBytes), "relative path inside"},
		{"symlink out", scratchParams("escape.png", pngBytes), "outside the scratch"},
		{"dir symlink out", scratchParams("dirlink/secret.png", pngBytes), "outside the scratch"},
		{"missing", scratchParams("nope.png", pngBytes), "cannot be resolved"},
		{"directory", scratchParams("adir", pngBytes), "not a regular file"},
		{"fifo", scratchParams("pipe.png", pngBytes), "not a regular file"},
		{"size mismatch", func() map[string]any { p := scratchParams("shots/a.png", pngBytes); p["size"] = 5; return p }(), "declared 5 bytes"},
		{"sha mismatch", func() map[string]any { p := scratchParams("shots/a.png", pngBytes); p["sha256"] = sum(nil); return p }(), "hash to"},
		{"bad sha", func() map[string]any { p := scratchParams("shots/a.png", pngBytes); p["sha256"] = "ABC"; return p }(), "64 lowercase"},
		{"over 20 MiB", func() map[string]any { p := scratchParams("shots/a.png", pngBytes); p["size"] = 20971521; return p }(), "outside 0..20971520"},
		{"mime mismatch", func() map[string]any { p := scratchParams("wav.bin", []byte("RIFF\x00\x00\x00\x00WAVEfmt ")); return p }(), "signature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := e.fails("artifact/publish", tc.params, -32602)
			if !strings.Contains(err.Message, tc.want) {
				t.Fatalf("message %q does not mention %q", err.Message, tc.want)
			}
		})
	}
	// The right MIME type for the WAV file passes.
	p := scratchParams("wav.bin", []byte("RIFF\x00\x00\x00\x00WAVEfmt "))
	p["mime_type"] = "audio/wav"
	e.ok("artifact/publish", p, nil)
}

func TestArtifactSignatures(t *testing.T) {
	e := newEnv(t, nil)
	good := map[string][]byte{
		"image/png":  pngBytes,
		"image/jpeg": []byte("\xff\xd8\xff\xe0JFIF"),
		"image/gif":  []byte("GIF89a...."),
		"image/webp": []byte("RIFF\x10\x00\x00\x00WEBPVP8 "),
		"audio/wav":  []byte("RIFF\x10\x00\x00\x00WAVEfmt "),
		"audio/mpeg": []byte("ID3\x04\x00"),
		"audio/ogg":  []byte("OggS\x00\x02"),
		"audio/flac": []byte("fLaC\x00\x00"),
	}
	for mime := range good {
		for other, otherData := range good {
			params := map[string]any{"parent_request_id": 7, "mime_type": mime, "data": base64.StdEncoding.EncodeToString(otherData)}
			_, err := e.call("artifact/publish", params)
			if (err == nil) != (mime == other) && !(mime == "audio/mpeg" && other == "image/jpeg") {
				// JPEG's FF D8 FF happens to be an MPEG frame sync; that pair is ambiguous by nature.
				t.Errorf("%s with %s bytes: err=%v", mime, other, err)
			}
		}
	}
}

func TestArtifactQuotas(t *testing.T) {
	e := newEnv(t, nil)
	data := base64.StdEncoding.EncodeToString(pngBytes)
	for i := 0; i < 64; i++ {
		e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": data}, nil)
	}
	err := e.fails("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": data}, -32002)
	if !strings.Contains(err.Message, "64 artifacts") {
		t.Fatalf("message %q", err.Message)
	}
	// The next generation has its own quota.
	e.c.Generation = 2
	e.setActive(parent, services.Owner{SessionID: "sess-1", ExtensionInstanceID: "inst-1", ProcessGeneration: 2}, true)
	e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": data}, nil)
	// A parent whose owner belongs to another generation is not active here.
	e.setActive(jsonrpc.IntID(8), defaultOwner(), true)
	e.fails("artifact/publish", map[string]any{"parent_request_id": 8, "mime_type": "image/png", "data": data}, -32002)
}

func TestArtifactByteQuota(t *testing.T) {
	e := newEnv(t, nil)
	// Four 17 MiB files fit three (51 MiB); the fourth passes 64 MiB.
	data := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 17<<20)...)
	e.writeScratch("big.png", data)
	for i := 0; i < 3; i++ {
		e.ok("artifact/publish", scratchParams("big.png", data), nil)
	}
	err := e.fails("artifact/publish", scratchParams("big.png", data), -32002)
	if !strings.Contains(err.Message, "exceeds 67108864") {
		t.Fatalf("message %q", err.Message)
	}
}

func TestCheckMedia(t *testing.T) {
	e := newEnv(t, nil)
	var res published
	e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "image/png", "data": base64.StdEncoding.EncodeToString(pngBytes)}, &res)
	ctx := context.Background()
	ok := `[{"type":"text","text":"x"},{"type":"image","artifact_id":"` + res.ArtifactID + `","mime_type":"image/png"}]`
	if err := e.r.CheckMedia(ctx, e.c, defaultOwner(), []byte(ok)); err != nil {
		t.Fatal(err)
	}
	var blob, ogg published
	e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "application/octet-stream", "data": base64.StdEncoding.EncodeToString(pngBytes)}, &blob)
	e.ok("artifact/publish", map[string]any{"parent_request_id": 7, "mime_type": "audio/ogg", "data": base64.StdEncoding.EncodeToString([]byte("OggS\x00\x02"))}, &ogg)
	audio := `[{"type":"audio","artifact_id":"` + ogg.ArtifactID + `","mime_type":"audio/ogg"}]`
	if err := e.r.CheckMedia(ctx, e.c, defaultOwner(), []byte(audio)); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"wrong mime": `[{"type":"image","artifact_id":"` + res.ArtifactID + `","mime_type":"image/gif"}]`,
		// Published fine, but its type is not a verified media type: PNG bytes
		// under application/octet-stream were never checked.
		"unverified type":     `[{"type":"image","artifact_id":"` + blob.ArtifactID + `","mime_type":"application/octet-stream"}]`,
		"audio type in image": `[{"type":"image","artifact_id":"` + ogg.ArtifactID + `","mime_type":"audio/ogg"}]`,
		"unknown id":          `[{"type":"audio","artifact_id":"artifact:ffff","mime_type":"audio/ogg"}]`,
		"not an array":        `{"type":"image"}`,
		"foreign owner":       ok,
	} {
		owner := defaultOwner()
		if name == "foreign owner" {
			owner.SessionID = "other"
		}
		if err := e.r.CheckMedia(ctx, e.c, owner, []byte(content)); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
