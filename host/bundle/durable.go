package bundle

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/host/bundle/recovery"
)

// syncTree fsyncs every file and directory of the candidate, deepest first, so that what
// a rename publishes is on disk before the name points at it.
func syncTree(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		return syncFile(p)
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := recovery.SyncDir(dirs[i]); err != nil {
			return err
		}
	}
	return nil
}

func syncFile(p string) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// syncRoot makes the root's renames durable. A failure is not reported: the rename has
// happened and is visible; only its survival of a power loss is in doubt.
func syncRoot(root string) { _ = recovery.SyncDir(root) }

// regularFile refuses an archive path that is not a regular file, without opening it: a
// FIFO or a device would block or never end.
func regularFile(src string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return refuse(src, RuleArchive, "cannot stat the archive: %v", err)
	}
	if !fi.Mode().IsRegular() {
		return refuse(src, RuleArchive, "is a %s, not a regular file; pass a .tar.gz or .tar archive", kindOf(fi.Mode()))
	}
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	}
	return "special file"
}
