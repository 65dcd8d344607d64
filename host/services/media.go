package services

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// CheckMedia checks the media parts of a tool result (the "content" array of
// an API 0.2/0.4 result) before the host accepts it: every image or audio
// part must name an artifact that c published under owner in this very
// generation, with exactly the MIME type the part declares, that type must be
// one of the media types whose signature publish verified (an image part an
// image/* one, an audio part an audio/* one), and all media together must stay
// within RESULT_MAX_MEDIA_BYTES. Text parts are ignored
// here; the error names the offending part.
func (r *Router) CheckMedia(ctx context.Context, c *Caller, owner Owner, content json.RawMessage) error {
	var parts []struct {
		Type       string `json:"type"`
		ArtifactID string `json:"artifact_id"`
		MIMEType   string `json:"mime_type"`
	}
	if err := json.Unmarshal(content, &parts); err != nil {
		return fmt.Errorf("content: not an array of content parts: %v", err)
	}
	var total int64
	for i, p := range parts {
		if p.Type != "image" && p.Type != "audio" {
			continue
		}
		if _, verified := mimeSignatures[p.MIMEType]; !verified || !strings.HasPrefix(p.MIMEType, p.Type+"/") {
			return fmt.Errorf("content[%d]: an %s part needs a verified %s/* media type (one of %s), not %q", i, p.Type, p.Type, strings.Join(mediaTypes(), ", "), p.MIMEType)
		}
		a, ok := r.ResolveArtifact(ctx, c, owner, p.ArtifactID)
		if !ok {
			return fmt.Errorf("content[%d]: artifact %q is unavailable to this owner and generation", i, p.ArtifactID)
		}
		if a.MIMEType != p.MIMEType {
			return fmt.Errorf("content[%d]: mime_type %q does not match the artifact's verified %q", i, p.MIMEType, a.MIMEType)
		}
		total += a.Size
		if total > protocol.ResultMaxMediaBytes {
			return fmt.Errorf("content[%d]: media in this result exceed %d bytes", i, protocol.ResultMaxMediaBytes)
		}
	}
	return nil
}
