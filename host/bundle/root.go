package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Prefixes of the private directories kept in the root. Discovery skips dot-directories.
const (
	stagingPrefix  = ".staging-"  // a candidate being unpacked and validated
	previousPrefix = ".previous-" // <prefix>XXX/<name>: the bundle an update moved aside
	removingPrefix = ".removing-" // <prefix>XXX/<name>: a bundle being deleted
	lockFile       = ".lock"
)

// lockRoot creates the root if needed and takes its exclusive advisory lock, so one
// operation at a time changes it; the kernel releases the lock if the process dies.
func (m *Manager) lockRoot() (unlock func(), err error) {
	if err := os.MkdirAll(m.Root, 0o755); err != nil {
		return nil, refuse(m.Root, RuleRootDirectory, "cannot create the extension root: %v", err)
	}
	f, err := os.OpenFile(filepath.Join(m.Root, lockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, refuse(m.Root, RuleRootDirectory, "cannot open the lock file: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, refuse(m.Root, RuleRootDirectory, "cannot lock the extension root: %v", err)
	}
	return func() { f.Close() }, nil
}

// cleanLeftovers finishes what a crashed operation left, under the lock: staging and removal
// directories are deleted; a moved-aside bundle is moved back when its name is free
// (the crash came between moving it aside and publishing the candidate), else deleted.
func (m *Manager) cleanLeftovers() {
	ents, err := os.ReadDir(m.Root)
	if err != nil {
		return
	}
	for _, ent := range ents {
		name := ent.Name()
		dir := filepath.Join(m.Root, name)
		switch {
		case strings.HasPrefix(name, stagingPrefix), strings.HasPrefix(name, removingPrefix):
			os.RemoveAll(dir)
		case strings.HasPrefix(name, previousPrefix):
			kids, _ := os.ReadDir(dir)
			for _, k := range kids {
				target := filepath.Join(m.Root, k.Name())
				if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) && !strings.HasPrefix(k.Name(), ".") {
					os.Rename(filepath.Join(dir, k.Name()), target)
				}
			}
			os.RemoveAll(dir)
		}
	}
}
