package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
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
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, fmt.Errorf("frame is not a JSON object: %s", excerpt(data))
	}
	fields := make([]field, 0, 4)
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return fields, nil
	}
	for i < len(data) {
		end := stringEnd(data, i)
		var key string
		if bytes.IndexByte(data[i:end], '\\') < 0 {
			key = string(data[i+1 : end-1])
		} else if err := json.Unmarshal(data[i:end], &key); err != nil {
			return nil, fmt.Errorf("object key %s: %v", excerpt(data[i:end]), err)
		}
		i = skipSpace(data, end)
		i = skipSpace(data, i+1) // the ':'
		vEnd := valueEnd(data, i)
		fields = append(fields, field{key: key, value: data[i:vEnd:vEnd]})
		i = skipSpace(data, vEnd)
		if i < len(data) && data[i] == '}' {
			return fields, nil
		}
		i = skipSpace(data, i+1) // the ','
	}
	return nil, fmt.Errorf("unterminated object: %s", excerpt(data))
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string starting at data[i].
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// valueEnd returns the index just past the JSON value starting at data[i].
func valueEnd(data []byte, i int) int {
	if i >= len(data) {
		return i
	}
	switch data[i] {
	case '"':
		return stringEnd(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				j = stringEnd(data, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(data)
	}
	j := i
	for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' &&
		data[j] != ' ' && data[j] != '\t' && data[j] != '\r' && data[j] != '\n' {
		j++
	}
	return j
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
