package store

import (
	"os"
	"syscall"
)

// startWriteback asks the kernel to start writing the range just written to disk
// without waiting (sync_file_range with SYNC_FILE_RANGE_WRITE), so the device works
// while the rest of the blob is copied and Commit's fsync finds most of the bytes
// already on their way. It is only a hint: durability still comes from that fsync,
// so an error is ignored. Chunks written directly (setDirect) have no dirty pages.
func startWriteback(f *os.File, off, n int64) {
	const syncFileRangeWrite = 2 // SYNC_FILE_RANGE_WRITE
	if n <= 0 {
		return
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		syscall.Syscall6(syscall.SYS_SYNC_FILE_RANGE, fd, uintptr(off), uintptr(n), syncFileRangeWrite, 0, 0)
	})
}

// setDirect turns O_DIRECT on or off for f's later writes (fcntl F_SETFL; Linux lets
// the flag change on an open descriptor). A direct write goes from the host's buffer
// to the device without a page-cache copy, so the blob costs no memcpy into the cache
// and no dirty pages for Commit's fsync to write. A filesystem without direct I/O
// refuses the flag (EINVAL), and the blob is then written through the cache.
func setDirect(f *os.File, on bool) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		flags, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		if e != 0 {
			ferr = e
			return
		}
		if on {
			flags |= syscall.O_DIRECT
		} else {
			flags &^= syscall.O_DIRECT
		}
		if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETFL, flags); e != 0 {
			ferr = e
		}
	}); err != nil {
		return err
	}
	return ferr
}
