package bridge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// toolInfo is what the result mapping needs to know of the tool.
type toolInfo struct {
	output bool // the tool declares an output schema
}

// mediaTypes are the MIME types an octet image or audio part may carry.
var mediaTypes = map[string]string{
	"image/png": "image", "image/jpeg": "image", "image/gif": "image", "image/webp": "image",
	"audio/wav": "audio", "audio/mpeg": "audio", "audio/ogg": "audio", "audio/flac": "audio",
}

// result maps an MCP tool result to an octet one:
//   - text → a text part;
//   - image and audio → an artifact and an image/audio part (a type octet parts do not
//     carry → the artifact and a text part naming it);
//   - an embedded text resource → a text part headed by its URI; a blob resource → an
//     artifact and a text part naming it; a resource link → a text part;
//   - structuredContent → structured_content (checked against the output schema by the SDK);
//   - isError → is_error.
//
// Resources and the result's _meta are listed in metadata.mcp. A result without text
// gets a text part summarising the others (octet results need one).
func (b *Bridge) result(ctx context.Context, server string, tool toolInfo, r *mcp.CallToolResult) (octet.Result, error) {
	parts := make([]octet.Content, 0, len(r.Content)+1) // +1: a summary text part, if needed
	var resources []map[string]any
	hasText := false
	for i, c := range r.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			parts = append(parts, octet.TextContent(c.Text))
			hasText = true
		case *mcp.ImageContent:
			parts = append(parts, b.media(ctx, server, i, "image", c.MIMEType, c.Data))
		case *mcp.AudioContent:
			parts = append(parts, b.media(ctx, server, i, "audio", c.MIMEType, c.Data))
		case *mcp.ResourceLink:
			resources = append(resources, map[string]any{"type": "resource_link", "uri": c.URI, "name": c.Name, "mime_type": c.MIMEType})
			parts = append(parts, octet.TextContent(fmt.Sprintf("resource link %s: %s", c.Name, c.URI)))
			hasText = true
		case *mcp.EmbeddedResource:
			res := c.Resource
			if res == nil {
				continue
			}
			entry := map[string]any{"type": "resource", "uri": res.URI, "mime_type": res.MIMEType}
			if res.Blob != nil {
				id, err := b.artifact(ctx, server, i, mimeOf(res.MIMEType), res.Blob)
				if err != nil {
					parts = append(parts, octet.TextContent(fmt.Sprintf("resource %s (%s, %d bytes): not carried: %v", res.URI, res.MIMEType, len(res.Blob), err)))
				} else {
					entry["artifact_id"] = id
					parts = append(parts, octet.TextContent(fmt.Sprintf("resource %s (%s, %d bytes): artifact %s", res.URI, res.MIMEType, len(res.Blob), id)))
				}
			} else {
				parts = append(parts, octet.TextContent(fmt.Sprintf("resource %s:\n%s", res.URI, res.Text)))
			}
			hasText = true
			resources = append(resources, entry)
		default:
			parts = append(parts, octet.TextContent(fmt.Sprintf("[MCP content of type %T has no octet equivalent]", c)))
			hasText = true
		}
	}
	for _, p := range parts {
		hasText = hasText || p.Type == "text"
	}
	if !hasText {
		parts = append(parts, octet.Content{})
		copy(parts[1:], parts)
		parts[0] = octet.TextContent(fmt.Sprintf("%d media part(s) from MCP server %s", len(parts)-1, server))
	}
	if len(parts) > protocol.ResultMaxContentParts {
		return octet.Result{}, fmt.Errorf("MCP server %s returned %d content parts; an octet result carries at most %d", server, len(parts), protocol.ResultMaxContentParts)
	}
	out := octet.Result{Content: parts, IsError: r.IsError}
	if r.StructuredContent != nil {
		obj, err := schemaObject(r.StructuredContent)
		if err != nil {
			return octet.Result{}, fmt.Errorf("MCP server %s structuredContent %v", server, err)
		}
		out.StructuredContent = obj
	} else if r.IsError && tool.output {
		out.StructuredContent = map[string]any{ErrorMarker: true}
	}
	if len(resources) > 0 || len(r.Meta) > 0 { // most results have neither: no map per call
		meta := map[string]any{"server": server}
		if len(resources) > 0 {
			meta["resources"] = resources
		}
		if len(r.Meta) > 0 {
			meta["_meta"] = map[string]any(r.Meta)
		}
		out.Metadata = map[string]any{"mcp": meta}
	}
	return out, nil
}

// media publishes image or audio bytes as an artifact and returns the part that shows
// them: an image/audio part when octet parts carry the type, else a text part naming
// the artifact. Without the artifacts service the part is a text note.
func (b *Bridge) media(ctx context.Context, server string, i int, kind, mime string, data []byte) octet.Content {
	mime = mimeOf(mime)
	id, err := b.artifact(ctx, server, i, mime, data)
	if err != nil {
		return octet.TextContent(fmt.Sprintf("[%s %s, %d bytes: not carried: %v]", kind, mime, len(data), err))
	}
	switch mediaTypes[mime] {
	case "image":
		if kind == "image" {
			return octet.ImageContent(id, mime, "")
		}
	case "audio":
		if kind == "audio" {
			return octet.AudioContent(id, mime, "")
		}
	}
	return octet.TextContent(fmt.Sprintf("[%s %s, %d bytes: artifact %s]", kind, mime, len(data), id))
}

func (b *Bridge) artifact(ctx context.Context, server string, i int, mime string, data []byte) (string, error) {
	if !b.ext.HasFeature(string(protocol.FeatureArtifacts)) {
		return "", fmt.Errorf("the host offers no artifacts")
	}
	name := fmt.Sprintf("%s-content-%d", server, i)
	if len(data) <= protocol.ArtifactInlineMaxBytes {
		inline, err := octet.InlineArtifact(mime, name, data)
		if err != nil {
			return "", err
		}
		info, err := b.ext.Artifacts.Publish(ctx, inline)
		if err != nil {
			return "", err
		}
		return info.ArtifactID, nil
	}
	// Too big to send inline: through a file in the scratch directory the host verifies.
	f, err := os.CreateTemp(octet.ScratchDir(), "mcp-*")
	if err != nil {
		return "", fmt.Errorf("a %d-byte artifact needs the scratch directory: %v", len(data), err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	file, err := octet.ScratchArtifact(mime, name, filepath.Base(f.Name()))
	if err != nil {
		return "", err
	}
	info, err := b.ext.Artifacts.Publish(ctx, file)
	if err != nil {
		return "", err
	}
	return info.ArtifactID, nil
}

// mimeOf is a MIME type as the host accepts it: lowercase, without parameters;
// application/octet-stream when missing.
func mimeOf(m string) string {
	m, _, _ = strings.Cut(m, ";")
	m = strings.ToLower(strings.TrimSpace(m))
	if m == "" {
		return "application/octet-stream"
	}
	return m
}
