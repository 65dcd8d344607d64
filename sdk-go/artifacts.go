package octet

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// InlineArtifact is the options of ext.Artifacts.Publish for bytes sent inline: at most
// ARTIFACT_INLINE_MAX_BYTES decoded (a bound on the bytes the schema's base64 string cannot
// state); write more to the scratch directory and use ScratchArtifact. name may be "".
func InlineArtifact(mimeType, name string, data []byte) (ArtifactsPublishOptions, error) {
	if len(data) > protocol.ArtifactInlineMaxBytes {
		return ArtifactsPublishOptions{}, localError("inline artifact of %d bytes exceeds the %d-byte limit; write it to the scratch directory and publish the path", len(data), protocol.ArtifactInlineMaxBytes)
	}
	b64 := base64.StdEncoding.EncodeToString(data)
	return ArtifactsPublishOptions{ArtifactPublishInline: &protocol.ArtifactPublishInline{MIMEType: mimeType, Name: nonEmpty(name), Data: &b64}}, nil
}

// ScratchArtifact is the options of ext.Artifacts.Publish for a file in the scratch
// directory ($OCTET_EXTENSION_SCRATCH), relPath relative to it: it reads the file for the
// size and digest the host verifies. name may be "".
func ScratchArtifact(mimeType, name, relPath string) (ArtifactsPublishOptions, error) {
	if err := checkScratchPath(relPath); err != nil {
		return ArtifactsPublishOptions{}, err
	}
	size, sum, err := hashFile(filepath.Join(ScratchDir(), relPath))
	if err != nil {
		return ArtifactsPublishOptions{}, err
	}
	return ArtifactsPublishOptions{ArtifactPublishFile: &protocol.ArtifactPublishFile{MIMEType: mimeType, Name: nonEmpty(name), Path: relPath, Size: size, SHA256: sum}}, nil
}

// ScratchDir is the per-generation scratch directory the host created
// ($OCTET_EXTENSION_SCRATCH).
func ScratchDir() string { return os.Getenv("OCTET_EXTENSION_SCRATCH") }

func checkScratchPath(p string) error {
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		return localError("artifact path %q is absolute; give a path relative to $OCTET_EXTENSION_SCRATCH", p)
	}
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == ".." {
			return localError("artifact path %q leaves the scratch directory", p)
		}
	}
	if p == "" || filepath.Clean(p) == "." {
		return localError("artifact path is empty")
	}
	return nil
}

func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", fmt.Errorf("octet: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("octet: reading %s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}
