package conformance_test

import (
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// The interaction checks pass on the rule-following raw fixture and fail on the mode that
// breaks each one's rule (TestEveryCheckCanFail runs the failing half among all checks;
// this runs both halves on their own, quickly).
func TestInteractionChecks(t *testing.T) {
	for _, name := range []string{"interaction.durable", "interaction.options"} {
		c, ok := conformance.Lookup(name)
		if !ok {
			t.Fatalf("%s is not registered", name)
		}
		t.Run(name, func(t *testing.T) {
			if res := conformance.RunCheck(t.Context(), c, loadFixture(t, ""), testOptions); res.Status != conformance.Pass {
				t.Fatalf("good fixture: %s: expected %s; got %s", res.Status, res.Expected, res.Detail)
			}
			res := conformance.RunCheck(t.Context(), c, loadFixture(t, brokenFor[name]), testOptions)
			if res.Status != conformance.Fail || res.Detail == "" {
				t.Fatalf("mode %s: %s (%s), want a failure that says what went wrong", brokenFor[name], res.Status, res.Detail)
			}
			t.Logf("mode %s: expected %s; got %s", brokenFor[name], res.Expected, res.Detail)
		})
	}
}
