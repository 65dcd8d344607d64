package script_test

import (
	"strings"
	"testing"
)

// TestMistypedSectionIsNamed: a near miss of a section names the one it was meant to be;
// a key near nothing still lists the sections.
func TestMistypedSectionIsNamed(t *testing.T) {
	got := parseErr([]byte("[[confirmation]]\nmatch = \"x\"\nconfirmed = true\n"))
	if !strings.Contains(got, `did you mean "confirmations"?`) {
		t.Fatalf("got %q", got)
	}
	got = parseErr([]byte("colour = 1\n"))
	if strings.Contains(got, "did you mean") || !strings.Contains(got, "known sections: secrets_file") {
		t.Fatalf("got %q", got)
	}
}
