package strictjson_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// A Reuse hands the maps and arrays of a released document to the next one, and every
// document it parses is exactly what Parse builds, however the previous ones were shaped.
func TestReuseParsesAsParseDoes(t *testing.T) {
	docs := []string{
		`{"content":[{"type":"text","text":"echo"}],"structured_content":{"value":"v"}}`,
		`{"a":{"b":{"c":[1,2,3,{"d":null}]}},"e":[]}`,
		`{}`,
		`[[],[{}],[1,"x",true]]`,
		`{"content":[{"type":"text","text":"a"},{"type":"image","artifact_id":"artifact:1"}],"is_error":false}`,
		`{"z":1}`,
		`"just a string"`,
		`{"a":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]}`,
		`{"a":1,"b":2}`,
	}
	var r strictjson.Reuse
	for round := 0; round < 3; round++ {
		for _, d := range docs {
			want, err := strictjson.Parse([]byte(d))
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.Parse([]byte(d), 0)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d: Reuse.Parse(%s) = %#v, want %#v", round, d, got, want)
			}
			r.Release()
		}
	}
	// Refused input leaves nothing half-built behind for the next document.
	if _, err := r.Parse([]byte(`{"a":{"b":1,"b":2}}`), 0); err == nil {
		t.Fatal("a duplicate key was accepted")
	}
	r.Release()
	if got, _ := r.Parse([]byte(`{"c":3}`), 0); !reflect.DeepEqual(got, map[string]any{"c": json.Number("3")}) {
		t.Fatalf("after a refused document: %#v", got)
	}
}

func TestReuseHandsBackTheSameMap(t *testing.T) {
	var r strictjson.Reuse
	first, _ := r.Parse([]byte(`{"a":1}`), 0)
	before := reflect.ValueOf(first).UnsafePointer()
	r.Release()
	second, _ := r.Parse([]byte(`{"b":2}`), 0)
	if reflect.ValueOf(second).UnsafePointer() != before {
		t.Fatal("the released map was not reused for the next document")
	}
	if m := second.(map[string]any); len(m) != 1 || m["a"] != nil {
		t.Fatalf("the reused map kept an old member: %v", m)
	}
}
