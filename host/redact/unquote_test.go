package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzUnquote: for every valid JSON string literal, unquote decodes exactly
// what encoding/json decodes (the prefilter must see the same value the
// rewrite would), and on anything else it stays in bounds.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\"b\\c\/d"`, `"\u00e9\ud83d\udd11"`, `"\ud83d"`, `"\udd11x"`, `"\b\f\n\r\t\u0000"`, `"\u2028"`, `"\uD83D\uDD11"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		var want string
		start, end, _, ok := nextString([]byte(lit), 0)
		if !ok || start != 0 || end != len(lit)-1 || json.Unmarshal([]byte(lit), &want) != nil {
			if len(lit) >= 2 {
				_ = unquote(nil, []byte(lit)) // must not panic
			}
			return
		}
		if got := string(unquote(nil, []byte(lit))); got != want {
			t.Fatalf("unquote(%s) = %q, encoding/json %q", lit, got, want)
		}
	})
}

// strings of a decoded JSON value, keys included.
func jsonStrings(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case []any:
		for _, e := range v {
			out = jsonStrings(e, out)
		}
	case map[string]any:
		for k, e := range v {
			out = jsonStrings(e, append(out, k))
		}
	}
	return out
}

// FuzzFrame: whatever the input, Frame's output holds no secret raw or
// Go-escaped, and when it is JSON no decoded string (key or value) holds one.
func FuzzFrame(f *testing.F) {
	secrets := []string{`a"b`, "é1", `x\y`}
	for _, s := range []string{`{"k":"a\"b"}`, `{"k":"\u00e91"}`, `["x\\y", "\u0061\u0022b"]`, `{"a\"b":1}`, `é1 raw`, `{"n":"{\"m\":\"\\u00e91\"}"}`} {
		f.Add(s)
	}
	r := New()
	r.Add(secrets...)
	f.Fuzz(func(t *testing.T, frame string) {
		out := r.Frame([]byte(frame))
		for _, s := range secrets {
			enc, _ := json.Marshal(s)
			if bytesContains(out, s) || bytesContains(out, string(enc[1:len(enc)-1])) {
				t.Fatalf("Frame(%q) = %q keeps %q", frame, out, s)
			}
		}
		var v any
		if json.Unmarshal(out, &v) != nil {
			return
		}
		for _, str := range jsonStrings(v, nil) {
			for _, s := range secrets {
				if bytesContains([]byte(str), s) {
					t.Fatalf("Frame(%q) = %q: decoded string %q holds %q", frame, out, str, s)
				}
			}
		}
	})
}

func bytesContains(b []byte, s string) bool { return strings.Contains(string(b), s) }
