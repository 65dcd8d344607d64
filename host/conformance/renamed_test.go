package conformance_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// A renamed check answers to its former name for one release, with a note saying the new one.
func TestFormerCheckNamesStillResolve(t *testing.T) {
	c, ok := conformance.Lookup("catalog.epochs")
	if !ok || c.Name != "catalog.revisions" {
		t.Fatalf("Lookup(catalog.epochs) = %v, %v; want catalog.revisions", c, ok)
	}
	cur, note := conformance.Canonical("catalog.epochs")
	if cur != "catalog.revisions" || !strings.Contains(note, `"catalog.revisions"`) {
		t.Fatalf("Canonical(catalog.epochs) = %q, %q", cur, note)
	}
	if cur, note := conformance.Canonical("catalog.revisions"); cur != "catalog.revisions" || note != "" {
		t.Fatalf("Canonical of a current name = %q, %q", cur, note)
	}
	for _, c := range conformance.Checks() {
		if c.Name == "catalog.epochs" {
			t.Fatal("the registry still holds the old name; reports must say the current one")
		}
	}
}
