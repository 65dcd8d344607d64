package conformance_test

import (
	"testing"

	"github.com/octet-kit/octet/host/conformance"
)

// transportChecks are the checks that drive the fault-injecting transport.
var transportChecks = []string{"frame.split_writes", "frame.crlf_accepted", "frame.bom_refused", "frame.garbage_refused", "frame.blank_line_refused",
	"eof.mid_frame", "overload.burst", "stdout.backpressure"}

// The raw fixture passes the transport checks for many seeds, not only the default one:
// the cut places, pauses and garbage change with the seed, the verdict must not.
func TestTransportChecksPassForManySeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ext := loadFixture(t, "")
	for _, seed := range []uint64{1, 2} {
		opts := testOptions
		opts.FaultSeed = seed
		for _, name := range transportChecks {
			if name == "stdout.backpressure" || name == "overload.burst" {
				continue // seed-independent in what they prove, and the slowest
			}
			c, _ := conformance.Lookup(name)
			if res := conformance.RunCheck(t.Context(), c, ext, opts); res.Status != conformance.Pass {
				t.Errorf("seed %d, %s: %s (%s)", seed, name, res.Status, res.Detail)
			}
		}
	}
}
