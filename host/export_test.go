package host

// SetUncheckedForBench turns the host's argument and result checks off, so a benchmark can
// measure their cost against the same process in the same run.
func SetUncheckedForBench(h *Host, off bool) { h.uncheckedForBench = off }
