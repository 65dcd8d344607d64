//go:build !linux

package store

import (
	"errors"
	"os"
)

// startWriteback is a no-op where sync_file_range does not exist; Commit's fsync
// writes everything.
func startWriteback(*os.File, int64, int64) {}

// setDirect: direct I/O is only used on Linux; elsewhere every blob is written
// through the page cache.
func setDirect(*os.File, bool) error { return errors.ErrUnsupported }
