//go:build !linux

package conformance

import "errors"

// Without inotify and /proc the sandbox checks skip before they look for evidence.

type watch struct{}

type procInfo struct {
	pid, ppid   int
	comm, start string
}

func watchPath(string) (*watch, error) { return nil, errors.New("no inotify on this platform") }
func (w *watch) touched() bool         { return false }
func (w *watch) close()                {}
func descendants(int) []procInfo       { return nil }
func marked(string) []procInfo         { return nil }
func alive(procInfo) bool              { return false }
func vmDataMiB(int) (int64, bool)      { return 0, false }
