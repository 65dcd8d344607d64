package schemacache

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
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

// A compile that fails while the generations turn over (another caller filled the current
// one, moving the compiling entry to the old one) is forgotten all the same.
func TestRefusalIsForgottenAfterTheGenerationsTurn(t *testing.T) {
	raw := []byte(`{"type":"object","properties":{"turned":{"type":"nope"}}}`)
	real := compileFn
	t.Cleanup(func() { compileFn = real })
	compileFn = func(b []byte) (*jsonschema.Schema, error) {
		if string(b) == string(raw) {
			for i := 0; i <= maxEntries; i++ { // a full generation's worth of other schemas
				cache.mu.Lock()
				putLocked(fmt.Sprintf(`{"turn":%d}`, i), &entry{ready: closed()})
				cache.mu.Unlock()
			}
		}
		return real(b)
	}
	if _, err := Compile(raw); err == nil {
		t.Fatal("an invalid schema compiled")
	}
	cache.mu.Lock()
	_, inCur := cache.cur[string(raw)]
	_, inOld := cache.old[string(raw)]
	cache.mu.Unlock()
	if inCur || inOld {
		t.Errorf("the refused compile is kept (current %v, old %v)", inCur, inOld)
	}
}

// A compile that panics leaves no entry behind that a later caller would wait on forever.
func TestPanickingCompileReleasesItsWaiters(t *testing.T) {
	raw := []byte(`{"type":"object","properties":{"panics":{"type":"string"}}}`)
	real := compileFn
	t.Cleanup(func() { compileFn = real })
	compileFn = func([]byte) (*jsonschema.Schema, error) { panic("compiler bug") }
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the compile's panic was swallowed")
			}
		}()
		_, _ = Compile(raw)
	}()
	compileFn = real
	done := make(chan error, 1)
	go func() { _, err := Compile(raw); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a caller after the panic waits for good")
	}
}

func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}
