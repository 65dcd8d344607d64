package octet

import (
	"os"
	"reflect"
	"testing"
)

// TestRuntimeShape: the runtime is registry -> dispatch -> connection -> session -> services,
// one file each (the same names in Python and TypeScript), and the Extension is composed of
// those parts rather than holding their fields itself.
func TestRuntimeShape(t *testing.T) {
	for _, f := range []string{"registry.go", "dispatch.go", "connection.go", "session.go", "services.go", "services_gen.go", "send.go"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("runtime file %s: %v", f, err)
		}
	}
	parts := map[string]bool{}
	et := reflect.TypeFor[Extension]()
	for i := range et.NumField() {
		if f := et.Field(i); f.Anonymous {
			parts[f.Name] = true
		}
	}
	for _, p := range []string{"services", "registry", "connection", "negotiated"} {
		if !parts[p] {
			t.Errorf("Extension does not embed its %s part (embedded: %v)", p, parts)
		}
	}
	if n := et.NumField(); n > 10 {
		t.Errorf("Extension holds %d fields itself; its state belongs in its parts", n)
	}
}
