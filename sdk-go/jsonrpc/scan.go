package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// field is one member of a JSON object, its value left raw.
type field struct {
	key   string
	value json.RawMessage
}

// splitObject splits a JSON object (already known to be valid JSON) into its members
// in order, keeping duplicates so the caller can refuse them. Scanning by hand keeps
// decoding strict (exact, case-sensitive keys) and cheap: values are not parsed.
func splitObject(data []byte) ([]field, error) {
	i := strictjson.SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, fmt.Errorf("frame is not a JSON object: %s", excerpt(data))
	}
	fields := make([]field, 0, 4)
	i = strictjson.SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return fields, nil
	}
	for i < len(data) {
		end := strictjson.StringEnd(data, i)
		var key string
		if bytes.IndexByte(data[i:end], '\\') < 0 {
			key = memberName(data[i+1 : end-1])
		} else {
			// Its own variable: the pointer json.Unmarshal takes moves it to the heap,
			// which would cost every member of every frame an allocation.
			var escaped string
			if err := json.Unmarshal(data[i:end], &escaped); err != nil {
				return nil, fmt.Errorf("object key %s: %v", excerpt(data[i:end]), err)
			}
			key = escaped
		}
		i = strictjson.SkipSpace(data, end)
		i = strictjson.SkipSpace(data, i+1) // the ':'
		vEnd := strictjson.ValueEnd(data, i)
		fields = append(fields, field{key: key, value: data[i:vEnd:vEnd]})
		i = strictjson.SkipSpace(data, vEnd)
		if i < len(data) && data[i] == '}' {
			return fields, nil
		}
		i = strictjson.SkipSpace(data, i+1) // the ','
	}
	return nil, fmt.Errorf("unterminated object: %s", excerpt(data))
}

// decodeString decodes the JSON value raw into *s as json.Unmarshal does. A string with
// no escape, control character or invalid UTF-8 (a method name, an id) is its bytes
// between the quotes, taken without json.Unmarshal's reflection and validation pass;
// anything else goes through json.Unmarshal, for its result and its errors.
func decodeString(raw []byte, s *string) error {
	if n := len(raw); n >= 2 && raw[0] == '"' && raw[n-1] == '"' {
		inner := raw[1 : n-1]
		plain := utf8.Valid(inner)
		for _, c := range inner {
			if c < 0x20 || c == '"' || c == '\\' {
				plain = false
				break
			}
		}
		if plain {
			*s = string(inner)
			return nil
		}
	}
	return json.Unmarshal(raw, s)
}

// memberName is b as a string; the envelope's own members (every frame has two or three
// of them) are the constants, so splitting a frame allocates no key.
func memberName(b []byte) string {
	switch string(b) { // compared without converting
	case "jsonrpc":
		return "jsonrpc"
	case "id":
		return "id"
	case "method":
		return "method"
	case "params":
		return "params"
	case "result":
		return "result"
	case "error":
		return "error"
	}
	return string(b)
}

// excerptBytes is how much of a bad frame an error message quotes.
const excerptBytes = 64

// excerpt quotes the first bytes of data for an error message, marking truncation.
func excerpt(data []byte) string {
	if len(data) <= excerptBytes {
		return fmt.Sprintf("%q", data)
	}
	cut := excerptBytes
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", data[:cut], len(data))
}

// compactJSON validates raw JSON and removes insignificant whitespace when it holds
// a line break (which would split the frame; JSON strings cannot contain raw line
// breaks, so any is whitespace). It returns nil when raw is not valid JSON.
func compactJSON(raw json.RawMessage) json.RawMessage {
	if bytes.IndexAny(raw, "\n\r") < 0 {
		if json.Valid(raw) {
			return raw
		}
		return nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil
	}
	return buf.Bytes()
}

// marshalValue encodes a Go value for the wire: json.RawMessage is validated and
// compacted, everything else goes through encoding/json.
func marshalValue(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		if raw == nil {
			return json.RawMessage("null"), nil
		}
		c := compactJSON(raw)
		if c == nil {
			return nil, fmt.Errorf("json.RawMessage %s is not valid JSON", excerpt(raw))
		}
		return c, nil
	}
	return json.Marshal(v)
}

// valueExcerpt shows a JSON value as written (it is already JSON text), truncated.
func valueExcerpt(raw []byte) string {
	if len(raw) <= excerptBytes {
		return string(raw)
	}
	cut := excerptBytes
	for cut > 0 && !utf8.RuneStart(raw[cut]) {
		cut--
	}
	return string(raw[:cut]) + "…"
}
