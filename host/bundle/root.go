package bundle

import (
	"os"

	"github.com/octet-kit/octet/host/bundle/recovery"
)

// Prefixes of the private directories kept in the root (recovery owns their meaning).
const (
	stagingPrefix  = recovery.StagingPrefix
	previousPrefix = recovery.PreviousPrefix
	removingPrefix = recovery.RemovingPrefix
)

// lockRoot creates the root if needed and takes its exclusive advisory lock, so one
// operation at a time changes it; the kernel releases the lock if the process dies.
func (m *Manager) lockRoot() (unlock func(), err error) {
	if err := os.MkdirAll(m.Root, 0o755); err != nil {
		return nil, refuse(m.Root, RuleRootDirectory, "cannot create the extension root: %v", err)
	}
	unlock, _, err = recovery.Lock(m.Root, true)
	if err != nil {
		return nil, refuse(m.Root, RuleRootDirectory, "cannot lock the extension root: %v", err)
	}
	return unlock, nil
}

// cleanLeftovers finishes what a crashed operation left, under the lock (recovery.Clean).
func (m *Manager) cleanLeftovers() { recovery.Clean(m.Root) }

// step marks a point of publication a crash may interrupt; tests kill the process there.
func (m *Manager) step(name string) {
	if m.stepHook != nil {
		m.stepHook(name)
	}
}
