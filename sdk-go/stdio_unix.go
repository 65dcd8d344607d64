//go:build unix

package octet

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// protectStdio moves the protocol to private descriptors before serving
// (wire.md §10): fd 1 is duplicated for the protocol's output and then pointed at
// fd 2, so fmt.Println, os.Stdout and inherited child process output go to stderr;
// fd 0 is duplicated for the protocol's input and pointed at /dev/null, so a child
// process cannot swallow host frames. Both private descriptors are close-on-exec,
// and pipes are made non-blocking so the Go poller parks goroutines instead of
// holding threads in read(2) and write(2).
func protectStdio() (io.ReadCloser, io.WriteCloser, error) {
	out, err := privateDup(1)
	if err != nil {
		return nil, nil, err
	}
	in, err := privateDup(0)
	if err != nil {
		unix.Close(out)
		return nil, nil, err
	}
	if err := unix.Dup2(2, 1); err != nil {
		return nil, nil, fmt.Errorf("pointing fd 1 at stderr: %w", err)
	}
	null, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err == nil {
		_ = unix.Dup2(null, 0)
		unix.Close(null)
	}
	return os.NewFile(uintptr(in), "octet-protocol-in"), os.NewFile(uintptr(out), "octet-protocol-out"), nil
}

// privateDup duplicates fd close-on-exec and, for a pipe or socket, non-blocking.
// A terminal stays blocking: its flags are shared with the user's shell.
func privateDup(fd int) (int, error) {
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return -1, fmt.Errorf("duplicating fd %d: %w", fd, err)
	}
	var st unix.Stat_t
	if unix.Fstat(dup, &st) == nil {
		if mode := st.Mode & unix.S_IFMT; mode == unix.S_IFIFO || mode == unix.S_IFSOCK {
			_ = unix.SetNonblock(dup, true)
		}
	}
	return dup, nil
}
