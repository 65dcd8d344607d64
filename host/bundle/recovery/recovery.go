// Package recovery finishes or rolls back what a crashed bundle operation left in an
// extension root. It is a leaf package so that discovery (which must never see a bundle
// missing after a crash) and the bundle manager run the same recovery without an import
// cycle.
//
// An operation records its intent in the root's structure, which is the journal: a
// candidate is unpacked in .staging-*, a bundle an update moved aside waits in
// .previous-*/<name>, a bundle being removed in .removing-*/<name>. Recovery reads that
// structure under the root's lock: staging and removal directories are deleted, and a
// moved-aside bundle is moved back when its name is free (the crash came between moving it
// aside and publishing the candidate), else deleted (the candidate was published).
package recovery

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Prefixes of the private directories kept in the root. Discovery skips dot-directories.
const (
	StagingPrefix  = ".staging-"  // a candidate being unpacked and validated
	PreviousPrefix = ".previous-" // <prefix>XXX/<name>: the bundle an update moved aside
	RemovingPrefix = ".removing-" // <prefix>XXX/<name>: a bundle being deleted
	LockFile       = ".lock"
)

// Lock takes root's exclusive advisory lock, waiting for it when wait is set; the kernel
// releases it if the process dies, so a crashed operation never leaves the root locked.
// ok is false when wait is unset and another live operation holds the lock.
func Lock(root string, wait bool) (unlock func(), ok bool, err error) {
	f, err := os.OpenFile(filepath.Join(root, LockFile), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) && !wait {
			return nil, false, nil
		}
		return nil, false, err
	}
	return func() { f.Close() }, true, nil
}

// Recover runs recovery on root for a reader (discovery, bundle list) if root is a bundle
// root (it holds the lock file) and no live operation holds the lock: a live operation
// finishes its own work, and on Linux its publication has no gap to see.
func Recover(root string) {
	if _, err := os.Lstat(filepath.Join(root, LockFile)); err != nil {
		return // not a root bundle operations ever touched
	}
	unlock, ok, err := Lock(root, false)
	if err != nil || !ok {
		return
	}
	defer unlock()
	Clean(root)
}

// Clean finishes what a crashed operation left; the caller holds the lock.
func Clean(root string) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	changed := false
	for _, ent := range ents {
		name := ent.Name()
		dir := filepath.Join(root, name)
		switch {
		case strings.HasPrefix(name, StagingPrefix), strings.HasPrefix(name, RemovingPrefix):
			os.RemoveAll(dir)
			changed = true
		case strings.HasPrefix(name, PreviousPrefix):
			kids, _ := os.ReadDir(dir)
			for _, k := range kids {
				target := filepath.Join(root, k.Name())
				if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) && !strings.HasPrefix(k.Name(), ".") {
					os.Rename(filepath.Join(dir, k.Name()), target)
				}
			}
			SyncDir(root) // the restored bundle is durable before its aside copy goes
			os.RemoveAll(dir)
			changed = true
		}
	}
	if changed {
		SyncDir(root)
	}
}

// SyncDir fsyncs a directory so the renames and creations in it are durable.
func SyncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
