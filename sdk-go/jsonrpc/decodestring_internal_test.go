package jsonrpc

import (
	"encoding/json"
	"testing"
)

// decodeString gives json.Unmarshal's result and verdict for every kind of value: its
// fast path only takes strings json.Unmarshal would copy unchanged.
func TestDecodeStringMatchesUnmarshal(t *testing.T) {
	for _, raw := range []string{
		`"tool/call"`, `""`, `"é ü 日本"`, `"a\"b"`, `"a\\b"`, `"\u0041"`, `"tab	inside"`,
		"\"bad \xff utf8\"", `null`, `12`, `{}`, `"unterminated`, `x"`, `"`,
	} {
		var want, got string
		wantErr := json.Unmarshal([]byte(raw), &want)
		gotErr := decodeString([]byte(raw), &got)
		if got != want || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%q: decodeString = %q, %v; json.Unmarshal = %q, %v", raw, got, gotErr, want, wantErr)
		}
	}
}
