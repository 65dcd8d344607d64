package strictjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// FuzzParse holds strictjson to its contract against encoding/json, the reference: it
// accepts only what encoding/json accepts, decodes it to the same value, and refuses
// valid JSON only for a documented strict rule that an independent witness confirms
// (repeated key, lone surrogate escape, invalid UTF-8, a number beyond float64, nesting
// deeper than MaxDepth). An accepted document survives a round trip through Marshal.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"b":[true,false,null,"x"],"c":{"d":1.5e-3}}`, `{"a":1,"a":2}`, `"\ud83d\ude00"`, `"\ud83d"`,
		`"\udc00\ud800"`, "\"\xff\"", `1e400`, `-0`, `[1,]`, `{"a" 1}`, ` [ ] `, `"\u0000"`, `{"\u0061":1,"a":2}`,
		string(bytes.Repeat([]byte("["), strictjson.MaxDepth+1)) + string(bytes.Repeat([]byte("]"), strictjson.MaxDepth+1)),
		`123456789012345678901234567890`, `{} x`, "\xef\xbb\xbf{}", `"\\ud800"`,
	} {
		f.Add([]byte(s))
	}
	for _, seed := range seedFiles(filepath.Join("..", "..", "..", "schema", "vectors"), filepath.Join("..", "..", "..", "host", "testdata", "hostile")) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := strictjson.Parse(data)
		if !json.Valid(data) {
			if err == nil {
				t.Fatalf("accepted what encoding/json refuses: %q", data)
			}
			return
		}
		if err != nil {
			var se *strictjson.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error is not a *SyntaxError: %T %v", err, err)
			}
			if se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("error offset %d outside the %d-byte input", se.Offset, len(data))
			}
			if why := strictRefusal(data); why == "" {
				t.Fatalf("refused valid JSON that breaks no strict rule: %v\ninput: %q", err, data)
			}
			return
		}
		want := reference(t, data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decoded %#v, encoding/json decodes %#v\ninput: %q", got, want, data)
		}
		out, err := json.Marshal(got)
		if err != nil {
			t.Fatalf("accepted value does not marshal: %v", err)
		}
		again, err := strictjson.Parse(out)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("round trip through %s: %#v, %v", out, again, err)
		}
	})
}

func reference(t *testing.T, data []byte) any {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return v
}

// strictRefusal names a strict rule that valid JSON data breaks, or "" when it breaks none.
// It is written independently of the parser: encoding/json's tokens for keys, depth and
// numbers, a byte scan for UTF-8 and surrogate escapes.
func strictRefusal(data []byte) string {
	if !utf8.Valid(data) {
		return "invalid UTF-8" // outside strings valid JSON is ASCII, so it is in a string
	}
	if loneSurrogate(data) {
		return "lone surrogate"
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	type frame struct {
		object bool
		keys   map[string]bool
		expect bool // in an object, the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			return ""
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.expect
		if top != nil && top.object {
			top.expect = !top.expect
		}
		if d, ok := tok.(json.Delim); !isKey && (!ok || d == '{' || d == '[') && len(stack) >= strictjson.MaxDepth {
			return "too deep" // a container at level MaxDepth+1 (the outermost is level 1)
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				stack = append(stack, &frame{object: v == '{', keys: map[string]bool{}, expect: true})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].object {
					stack[len(stack)-1].expect = true
				}
			}
		case string:
			if isKey {
				if top.keys[v] {
					return "duplicate key"
				}
				top.keys[v] = true
			}
		case json.Number:
			if f, err := strconv.ParseFloat(string(v), 64); err != nil && math.IsInf(f, 0) {
				return "number beyond float64"
			}
		}
	}
}

// loneSurrogate reports a \uD800-\uDFFF escape inside a string that is not a high
// surrogate escape immediately followed by a low one.
func loneSurrogate(data []byte) bool {
	in := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case !in:
			in = c == '"'
		case c == '"':
			in = false
		case c == '\\' && i+1 < len(data) && data[i+1] == 'u' && i+5 < len(data):
			r, _ := strconv.ParseUint(string(data[i+2:i+6]), 16, 32)
			switch {
			case r >= 0xD800 && r <= 0xDBFF:
				if i+11 >= len(data) || data[i+6] != '\\' || data[i+7] != 'u' {
					return true
				}
				r2, _ := strconv.ParseUint(string(data[i+8:i+12]), 16, 32)
				if r2 < 0xDC00 || r2 > 0xDFFF {
					return true
				}
				i += 11
			case r >= 0xDC00 && r <= 0xDFFF:
				return true
			default:
				i += 5
			}
		case c == '\\':
			i++ // skip the escaped character
		}
	}
	return false
}

func seedFiles(dirs ...string) [][]byte {
	var out [][]byte
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			if data, err := os.ReadFile(p); err == nil {
				out = append(out, data)
			}
			return nil
		})
	}
	return out
}
