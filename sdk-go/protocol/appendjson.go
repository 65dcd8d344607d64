package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// The helpers of the generated AppendJSON methods. Each writes exactly what encoding/json
// writes for the same value (HTML-safe escaping included), so AppendJSON and json.Marshal
// agree byte for byte; the common case (plain ASCII strings, compact raw JSON) takes no
// detour through encoding/json.

// appendKey writes a member's `"name":`, preceded by a comma unless it is the first member
// of the object that starts at start.
func appendKey(dst []byte, start int, key string) []byte {
	if len(dst) > start+1 {
		dst = append(dst, ',')
	}
	return append(dst, key...)
}

// appendString writes s as a JSON string.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			enc, _ := json.Marshal(s) // escapes, replaces invalid UTF-8: cannot fail
			return append(dst, enc...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

func appendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

func appendBool(dst []byte, v bool) []byte { return strconv.AppendBool(dst, v) }

// appendRaw writes raw JSON as encoding/json writes a json.RawMessage: checked, compacted
// and HTML-escaped. Raw JSON already in that form (the usual case) is copied as is.
func appendRaw(dst []byte, raw json.RawMessage) ([]byte, error) {
	plain := true
	for _, c := range raw {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '<' || c == '>' || c == '&' || c == 0xE2 {
			plain = false // 0xE2 starts U+2028/U+2029, which encoding/json escapes
			break
		}
	}
	if plain && json.Valid(raw) {
		return append(dst, raw...), nil
	}
	return appendMarshal(dst, raw)
}

// appendMarshal writes v through encoding/json (unions, nullable values, numbers, arrays
// of objects).
func appendMarshal(dst []byte, v any) ([]byte, error) {
	enc, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("protocol: %w", err)
	}
	return append(dst, enc...), nil
}
