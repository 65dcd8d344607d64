//go:build !linux

package process

// EnableSubreaper is a no-op where there are no subreapers: orphans go to init, and the
// EOF rule (an extension exits when its stdin closes) is what ends them.
func EnableSubreaper() error { return nil }

// KillAdopted has nothing to kill without a subreaper.
func KillAdopted() int { return 0 }
