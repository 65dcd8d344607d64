package schemacache

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// The same bytes compile once: a second call returns the kept schema, and concurrent
// callers share one.
func TestSameBytesShareOneSchema(t *testing.T) {
	raw := []byte(`{"type":"object","properties":{"shared":{"type":"string"}}}`)
	first, err := Compile(raw)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); s, _ := Compile(append([]byte(nil), raw...)); got[i] = s }()
	}
	wg.Wait()
	for i, s := range got {
		if s != any(first) {
			t.Errorf("call %d compiled again", i)
		}
	}
	if err := first.Validate(map[string]any{"shared": 1.0}); err == nil {
		t.Error("the kept schema accepts a number for a string")
	}
}

// A refusal is not kept and is the same every time, naming what is wrong.
func TestRefusalIsNotKept(t *testing.T) {
	raw := []byte(`{"$ref":"http://example.com/other.json"}`)
	before := Len()
	_, err1 := Compile(raw)
	_, err2 := Compile(raw)
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("refusals %v, %v", err1, err2)
	}
	if !strings.Contains(err1.Error(), "http://example.com/other.json") {
		t.Errorf("the refusal does not name the reference: %v", err1)
	}
	if Len() != before {
		t.Errorf("a refused schema was kept (%d → %d)", before, Len())
	}
	if _, err := Compile([]byte(`{"type":`)); err == nil || !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("broken JSON: %v", err)
	}
}

// The cache never holds more than two generations of maxEntries schemas.
func TestCacheIsBounded(t *testing.T) {
	for i := range 3*maxEntries + 7 {
		if _, err := Compile(fmt.Appendf(nil, `{"const":%d}`, i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := Len(); n > 2*maxEntries {
		t.Errorf("%d schemas kept, bound %d", n, 2*maxEntries)
	}
	big := []byte(`{"description":"` + strings.Repeat("x", maxSchemaBytes) + `"}`)
	a, _ := Compile(big)
	b, _ := Compile(big)
	if a == b {
		t.Error("a schema over maxSchemaBytes was kept")
	}
}
