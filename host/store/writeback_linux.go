package store

import (
	"os"
	"syscall"
)

// startWriteback asks the kernel to start writing the range just written to disk
// without waiting (sync_file_range with SYNC_FILE_RANGE_WRITE), so the device works
// while the rest of the blob is copied and Commit's fsync finds most of the bytes
// already on their way. It is only a hint: durability still comes from that fsync,
// so an error is ignored.
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
