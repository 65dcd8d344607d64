package octet

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Content is one typed content part of a tool result: text, or an image or audio
// artifact the host already holds. Build it with TextContent, ImageContent or
// AudioContent.
type Content struct {
	Type       string // "text", "image" or "audio"
	Text       string
	ArtifactID string
	MIMEType   string
	Alt        string // image only, optional
	Transcript string // audio only, optional
}

// TextContent is a text part.
func TextContent(text string) Content { return Content{Type: "text", Text: text} }

// ImageContent references a published image artifact (image/png, image/jpeg,
// image/gif or image/webp); alt may be empty.
func ImageContent(artifactID, mimeType, alt string) Content {
	return Content{Type: "image", ArtifactID: artifactID, MIMEType: mimeType, Alt: alt}
}

// AudioContent references a published audio artifact (audio/wav, audio/mpeg,
// audio/ogg or audio/flac); transcript may be empty.
func AudioContent(artifactID, mimeType, transcript string) Content {
	return Content{Type: "audio", ArtifactID: artifactID, MIMEType: mimeType, Transcript: transcript}
}

// MarshalJSON writes the part in its wire shape.
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case "text":
		return json.Marshal(struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}{c.Type, c.Text})
	case "image":
		return json.Marshal(struct {
			Type       string `json:"type"`
			ArtifactID string `json:"artifact_id"`
			MIMEType   string `json:"mime_type"`
			Alt        string `json:"alt,omitempty"`
		}{c.Type, c.ArtifactID, c.MIMEType, c.Alt})
	case "audio":
		return json.Marshal(struct {
			Type       string `json:"type"`
			ArtifactID string `json:"artifact_id"`
			MIMEType   string `json:"mime_type"`
			Transcript string `json:"transcript,omitempty"`
		}{c.Type, c.ArtifactID, c.MIMEType, c.Transcript})
	}
	return nil, fmt.Errorf("octet: content part type %q is not text, image or audio", c.Type)
}

// Result is a tool's answer. API 0.2/0.4 sends it as typed content parts; API 0.1
// sends the text parts joined by newlines as its content string.
type Result struct {
	Content []Content
	IsError bool
	// StructuredContent is required exactly when the tool declares an output
	// schema, and must validate against it. It must encode to a JSON object.
	StructuredContent any
	// Metadata is free-form, not shown to the model (API 0.1 hosts discard it).
	Metadata map[string]any
}

// Text is a result with one text part.
func Text(text string) Result { return Result{Content: []Content{TextContent(text)}} }

// Errorf is an error result (is_error) with one text part: the tool ran and
// reports failure to the model, unlike returning an error, which fails the call.
func Errorf(format string, args ...any) Result {
	return Result{Content: []Content{TextContent(fmt.Sprintf(format, args...))}, IsError: true}
}

// ToolResult builds a result from parts.
func ToolResult(parts ...Content) Result { return Result{Content: parts} }

// WithStructured returns r with structured content set.
func (r Result) WithStructured(v any) Result { r.StructuredContent = v; return r }

// WithMetadata returns r with metadata set.
func (r Result) WithMetadata(m map[string]any) Result { r.Metadata = m; return r }

var (
	imageTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}
	audioTypes = map[string]bool{"audio/wav": true, "audio/mpeg": true, "audio/ogg": true, "audio/flac": true}
)

// wire turns the result into its API-version shape, checking the limits the host
// would refuse (wire.md §4) so the author hears about them as -32603 naming the
// problem instead of the host rejecting the result.
func (r Result) wire(apiVersion string, tool *ToolDef) (any, error) {
	if apiVersion == "0.1" {
		var texts []string
		for _, c := range r.Content {
			if c.Type != "text" {
				return nil, fmt.Errorf("tool %q returned a %s part; API 0.1 results are text only", tool.spec.Name, c.Type)
			}
			texts = append(texts, c.Text)
		}
		out := map[string]any{"content": strings.Join(texts, "\n")}
		if r.IsError {
			out["is_error"] = true
		}
		if r.Metadata != nil {
			out["metadata"] = r.Metadata
		}
		return out, nil
	}
	n := len(r.Content)
	if n == 0 || n > protocol.ResultMaxContentParts {
		return nil, fmt.Errorf("tool %q returned %d content parts; a result needs 1..%d", tool.spec.Name, n, protocol.ResultMaxContentParts)
	}
	hasText := false
	for i, c := range r.Content {
		switch c.Type {
		case "text":
			hasText = true
		case "image":
			if c.ArtifactID == "" || !imageTypes[c.MIMEType] {
				return nil, fmt.Errorf("tool %q content[%d]: an image needs an artifact_id and an image/png|jpeg|gif|webp mime type, got %q", tool.spec.Name, i, c.MIMEType)
			}
		case "audio":
			if c.ArtifactID == "" || !audioTypes[c.MIMEType] {
				return nil, fmt.Errorf("tool %q content[%d]: audio needs an artifact_id and an audio/wav|mpeg|ogg|flac mime type, got %q", tool.spec.Name, i, c.MIMEType)
			}
		default:
			return nil, fmt.Errorf("tool %q content[%d]: part type %q is not text, image or audio", tool.spec.Name, i, c.Type)
		}
	}
	if !hasText {
		return nil, fmt.Errorf("tool %q returned no text part; a result needs at least one", tool.spec.Name)
	}
	out := &result02{Content: r.Content, IsError: r.IsError}
	if tool.output != nil && r.StructuredContent == nil {
		return nil, fmt.Errorf("tool %q declares an output_schema but returned no structured_content", tool.spec.Name)
	}
	if r.StructuredContent != nil {
		raw, err := json.Marshal(r.StructuredContent)
		if err != nil {
			return nil, fmt.Errorf("tool %q structured_content: %v", tool.spec.Name, err)
		}
		if len(raw) == 0 || raw[0] != '{' {
			return nil, fmt.Errorf("tool %q structured_content must be a JSON object, got %.40s", tool.spec.Name, raw)
		}
		if len(raw) > protocol.ResultMaxStructuredBytes {
			return nil, fmt.Errorf("tool %q structured_content is %d bytes, over the %d-byte limit", tool.spec.Name, len(raw), protocol.ResultMaxStructuredBytes)
		}
		if tool.output != nil {
			if err := tool.output.validate(raw); err != nil {
				var se *schemaError
				if errors.As(err, &se) {
					return nil, outputSchemaFault(tool.spec.Name, se.pointer(), se.keyword, se.reason)
				}
				return nil, fmt.Errorf("tool %q structured_content does not match its output_schema: %v", tool.spec.Name, err)
			}
		}
		out.StructuredContent = raw
	}
	if r.Metadata != nil {
		raw, err := json.Marshal(r.Metadata)
		if err != nil {
			return nil, fmt.Errorf("tool %q metadata: %v", tool.spec.Name, err)
		}
		if len(raw) > protocol.ResultMaxMetadataBytes {
			return nil, fmt.Errorf("tool %q metadata is %d bytes, over the %d-byte limit", tool.spec.Name, len(raw), protocol.ResultMaxMetadataBytes)
		}
		out.Metadata = raw
	}
	return out, nil
}

// result02 is a 0.2/0.4 tool result on the wire: a struct rather than a map so
// encoding it needs no map iteration or key sorting (it is on every tool call's
// path). Fields are in the order a map would sort them, so the bytes are the same.
type result02 struct {
	Content           []Content       `json:"content"`
	IsError           bool            `json:"is_error,omitempty"`
	Metadata          json.RawMessage `json:"metadata,omitempty"`
	StructuredContent json.RawMessage `json:"structured_content,omitempty"`
}
