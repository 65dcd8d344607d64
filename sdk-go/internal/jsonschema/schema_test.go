package jsonschema

import (
	"sync"
	"testing"
)

// TestConcurrentValidation: one compiled schema judges instances from many
// goroutines at once (tool calls run on a worker pool); run under -race.
func TestConcurrentValidation(t *testing.T) {
	s, err := CompileJSON([]byte(`{"$defs":{"n":{"$dynamicAnchor":"n","type":"integer","minimum":1}},
		"type":"object","properties":{"a":{"$dynamicRef":"#n"},"b":{"type":"array","items":{"$ref":"#/$defs/n"}}},
		"unevaluatedProperties":false}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	good := mustDecode(t, []byte(`{"a":2,"b":[1,2,3]}`))
	bad := mustDecode(t, []byte(`{"a":2,"b":[1,0],"c":1}`))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 200 {
				if !s.Valid(good) {
					t.Error("a valid instance failed")
					return
				}
				f, failed := s.Check(bad)
				if !failed || f.Pointer() != "" || f.Keyword != "unevaluatedProperties" {
					t.Errorf("got %v %+v", failed, f)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestReferenceLoopIsAFaultNotACrash: references that loop without descending
// into the instance would overflow the stack (fatal in Go); they fail the
// instance instead, naming the depth.
func TestReferenceLoopIsAFaultNotACrash(t *testing.T) {
	s, err := CompileJSON([]byte(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, failed := s.Check(mustDecode(t, []byte(`{}`)))
	if !failed || f.Keyword != "$ref" || f.Reason != "references nest deeper than 1000" {
		t.Fatalf("got %v %+v", failed, f)
	}
	// A deep but finite recursion over a deep instance is fine.
	tree, err := CompileJSON([]byte(`{"type":"object","properties":{"c":{"$ref":"#"}}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	deep := any(map[string]any{})
	for range 500 {
		deep = map[string]any{"c": deep}
	}
	if !tree.Valid(deep) {
		t.Error("a 500-deep tree fails")
	}
}
