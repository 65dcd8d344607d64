package sandbox

// SetUnavailable makes Available report the mechanism missing until restore is called, so
// callers' tests can prove that a kernel without the sandbox fails closed. Not for use
// outside tests.
func SetUnavailable(missing string) (restore func()) {
	probeOnce.Do(func() { probeErr = probe() })
	saved := probeErr
	probeErr = &Unavailable{Missing: missing}
	return func() { probeErr = saved }
}
