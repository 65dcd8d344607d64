package strictjson_test

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

func nested(levels int) []byte {
	return []byte(`{"k":` + strings.Repeat("[", levels-1) + strings.Repeat("]", levels-1) + `}`)
}

// MaxDepth levels parse; one more is refused with the path and byte of the level past it;
// ParseNested counts the levels outside data (a frame's params sit inside the envelope).
func TestDepthBound(t *testing.T) {
	if _, err := strictjson.Parse(nested(strictjson.MaxDepth)); err != nil {
		t.Fatalf("at the bound: %v", err)
	}
	_, err := strictjson.Parse(nested(strictjson.MaxDepth + 1))
	want := "json: nesting deeper than 128 levels (MAX_JSON_DEPTH) at byte 132 (path $.k" + strings.Repeat("[0]", strictjson.MaxDepth-1) + ")"
	if err == nil || err.Error() != want {
		t.Fatalf("one past the bound:\n got %v\nwant %s", err, want)
	}
	if _, err := strictjson.ParseNested(nested(strictjson.MaxDepth), 1); err == nil || !strings.Contains(err.Error(), strictjson.Nesting) {
		t.Fatalf("nested inside one level: %v", err)
	}
	if got := strictjson.NestingOffset(nested(strictjson.MaxDepth + 1)); got != 132 {
		t.Fatalf("NestingOffset = %d, want 132", got)
	}
	// Brackets inside strings (with escaped quotes) do not nest.
	s := []byte(`{"k":"` + strings.Repeat(`[\"`, 300) + `"}`)
	if got := strictjson.NestingOffset(s); got != -1 {
		t.Fatalf("brackets in a string counted: %d", got)
	}
}

// Parsing a document at the bound with long keys allocates about what the document holds:
// the error path is not built per level (it was a string per level, quadratic in depth:
// here 127 levels of 4 KiB keys made 33 MB of path strings for a 520 KB document).
func TestDeepParseDoesNotBuildPaths(t *testing.T) {
	key := strings.Repeat("k", 4096)
	doc := []byte(strings.Repeat(`{"`+key+`":`, strictjson.MaxDepth-1) + "1" + strings.Repeat("}", strictjson.MaxDepth-1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := strictjson.Parse(doc); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 4*uint64(len(doc)) {
		t.Fatalf("parsing %d bytes allocated %d", len(doc), got)
	}
}

// BenchmarkNestingOffset measures the pre-scan every frame gets: a frame of escaped text
// and small containers (quotes every few bytes, the slow case) and one artifact-like frame
// of base64 (one string, jumped over whole).
func BenchmarkNestingOffset(b *testing.B) {
	frames := map[string][]byte{
		"escaped_text": []byte(`{"jsonrpc":"2.0","id":1,"method":"tool/call","params":{"name":"echo","arguments":{"value":"` +
			strings.Repeat("abc\\\"def ", 100_000) + `","list":` + string(bytes.Repeat([]byte(`[1,2,{"a":3}],`), 1000)) + `0}}}`),
		"base64": []byte(`{"jsonrpc":"2.0","id":1,"method":"artifact/publish","params":{"data":"` +
			strings.Repeat("QUJDREVGR0g=", 87_000) + `"}}`),
	}
	for name, frame := range frames {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(frame)))
			for b.Loop() {
				if strictjson.NestingOffset(frame) != -1 {
					b.Fatal("refused")
				}
			}
		})
	}
}
