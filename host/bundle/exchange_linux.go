package bundle

import (
	"errors"

	"golang.org/x/sys/unix"
)

// exchange swaps the two directories in one step (renameat2 RENAME_EXCHANGE), so the
// published name never stops naming a complete bundle. ok is false when the filesystem or
// kernel cannot exchange; the caller then uses the move-aside path.
func exchange(a, b string) (ok bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return false, nil
	}
	return true, err
}

// renameNew renames a to b only if b does not exist (RENAME_NOREPLACE), so an install never
// replaces an empty directory someone created meanwhile. ok is false when unsupported.
func renameNew(a, b string) (ok bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return false, nil
	}
	return true, err
}
