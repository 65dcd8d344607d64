package octet

import (
	"fmt"
)

// AppendJSON writes the result as json.Marshal would (the transport calls it for every
// tool call's answer): content parts, is_error, metadata and structured_content in the
// struct's field order, with no reflection. Metadata and StructuredContent were encoded
// by json.Marshal in wire, so they are already compact and HTML-escaped and are copied
// as they are instead of being checked and compacted a second time.
func (r *result02) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"content":[`...)
	for i, c := range r.Content {
		if i > 0 {
			dst = append(dst, ',')
		}
		var err error
		if dst, err = c.appendJSON(dst); err != nil {
			return nil, err
		}
	}
	dst = append(dst, ']')
	if r.IsError {
		dst = append(dst, `,"is_error":true`...)
	}
	if len(r.Metadata) > 0 {
		dst = append(dst, `,"metadata":`...)
		dst = append(dst, r.Metadata...)
	}
	if len(r.StructuredContent) > 0 {
		dst = append(dst, `,"structured_content":`...)
		dst = append(dst, r.StructuredContent...)
	}
	return append(dst, '}'), nil
}

// appendJSON writes the part as MarshalJSON does.
func (c Content) appendJSON(dst []byte) ([]byte, error) {
	switch c.Type {
	case "text":
		dst = append(dst, `{"type":"text","text":`...)
		dst = appendJSONString(dst, c.Text)
	case "image", "audio":
		dst = append(dst, `{"type":`...)
		dst = appendJSONString(dst, c.Type)
		dst = append(dst, `,"artifact_id":`...)
		dst = appendJSONString(dst, c.ArtifactID)
		dst = append(dst, `,"mime_type":`...)
		dst = appendJSONString(dst, c.MIMEType)
		if c.Type == "image" && c.Alt != "" {
			dst = append(dst, `,"alt":`...)
			dst = appendJSONString(dst, c.Alt)
		}
		if c.Type == "audio" && c.Transcript != "" {
			dst = append(dst, `,"transcript":`...)
			dst = appendJSONString(dst, c.Transcript)
		}
	default:
		return nil, fmt.Errorf("octet: content part type %q is not text, image or audio", c.Type)
	}
	return append(dst, '}'), nil
}
