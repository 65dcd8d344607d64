package conformance_test

import (
	"regexp"
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// A check's requirement is printed with every failure: it must cite what a user has
// (docs/, schema/), never the kit's internal design notes or the seeds.
func TestRequirementsCiteUserDocs(t *testing.T) {
	internal := regexp.MustCompile(`DESIGN\.md|\bseeds?\b|TestTransportCompatibility`)
	for _, c := range conformance.Checks() {
		if internal.MatchString(c.Requirement) {
			t.Errorf("%s: requirement %q cites an internal document; cite docs/ or schema/", c.Name, c.Requirement)
		}
		if c.Requirement == "" {
			t.Errorf("%s has no requirement", c.Name)
		}
	}
}
