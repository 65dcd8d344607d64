package conformance

import "time"

// usage is what a process group has taken from the machine: resident memory now, and
// CPU time since it started.
type usage struct {
	RSS uint64
	CPU time.Duration
}
