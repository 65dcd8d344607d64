package octet

import (
	"context"
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

// Artifact is content to publish: either inline Data (at most 256 KiB) or a Path
// relative to $OCTET_EXTENSION_SCRATCH with its Size and SHA256 (lowercase hex),
// which the host verifies.
type Artifact struct {
	MIMEType string
	Name     string
	Data     []byte
	Path     string
	Size     int64
	SHA256   string
}

// ArtifactInfo is the host's receipt: an opaque id usable in ImageContent or
// AudioContent, and what the host verified.
type ArtifactInfo struct {
	ArtifactID string `json:"artifact_id"`
	Size       int64  `json:"size"`
	SHA256     string `json:"sha256"`
}

// PublishArtifact publishes bytes to the host for the ambient request. Needs
// negotiated artifacts. Absolute and parent-traversing paths are refused locally.
func (e *Extension) PublishArtifact(ctx context.Context, a Artifact) (ArtifactInfo, error) {
	if _, err := e.need("PublishArtifact", protocol.FeatureArtifacts); err != nil {
		return ArtifactInfo{}, err
	}
	if a.MIMEType == "" {
		return ArtifactInfo{}, localError("artifact mime_type is empty")
	}
	st, err := e.parent(ctx, "PublishArtifact")
	if err != nil {
		return ArtifactInfo{}, err
	}
	params := map[string]any{"parent_request_id": st.id, "mime_type": a.MIMEType}
	if a.Name != "" {
		params["name"] = a.Name
	}
	switch {
	case a.Path != "" && a.Data != nil:
		return ArtifactInfo{}, localError("an artifact has either Data or Path, not both")
	case a.Path != "":
		if err := checkScratchPath(a.Path); err != nil {
			return ArtifactInfo{}, err
		}
		if a.Size < 0 || a.Size > protocol.ArtifactMaxBytes {
			return ArtifactInfo{}, localError("artifact size %d is outside 0..%d", a.Size, protocol.ArtifactMaxBytes)
		}
		if !sha256Pattern.MatchString(a.SHA256) {
			return ArtifactInfo{}, localError("artifact sha256 must be 64 lowercase hex digits")
		}
		params["path"], params["size"], params["sha256"] = a.Path, a.Size, a.SHA256
	default:
		if len(a.Data) > protocol.ArtifactInlineMaxBytes {
			return ArtifactInfo{}, localError("inline artifact of %d bytes exceeds the %d-byte limit; write it to the scratch directory and publish the path", len(a.Data), protocol.ArtifactInlineMaxBytes)
		}
		params["data"] = base64.StdEncoding.EncodeToString(a.Data)
	}
	var res ArtifactInfo
	if err := e.ask(ctx, protocol.MethodArtifactPublish, params, &res); err != nil {
		return ArtifactInfo{}, err
	}
	return res, nil
}

// PublishScratchFile publishes a file already written under
// $OCTET_EXTENSION_SCRATCH, computing its size and SHA-256.
func (e *Extension) PublishScratchFile(ctx context.Context, mimeType, relPath, name string) (ArtifactInfo, error) {
	if err := checkScratchPath(relPath); err != nil {
		return ArtifactInfo{}, err
	}
	size, sum, err := hashFile(filepath.Join(ScratchDir(), relPath))
	if err != nil {
		return ArtifactInfo{}, err
	}
	return e.PublishArtifact(ctx, Artifact{MIMEType: mimeType, Name: name, Path: relPath, Size: size, SHA256: sum})
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
