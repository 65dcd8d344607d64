package host

// SetUncheckedForBench turns the host's argument and result checks off, so a benchmark can
// measure their cost against the same process in the same run.
func SetUncheckedForBench(h *Host, off bool) { h.uncheckedForBench = off }

// SetLifecycleHooks installs installing (run as the host begins to install a generation
// whose initialize answer it has read and checked) and waitReady (run when something the
// extension wrote after its answer starts waiting for the install) until the test ends.
func SetLifecycleHooks(t interface{ Cleanup(func()) }, installing, waitReady func(ext string)) {
	hookInstalling.Store(&installing)
	hookWaitReady.Store(&waitReady)
	t.Cleanup(func() { hookInstalling.Store(nil); hookWaitReady.Store(nil) })
}
