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
// process cannot swallow host frames. Both private descriptors are close-on-exec.
//
// They keep the blocking mode the host gave them (os/exec hands a child blocking
// pipes). The reader then waits in read(2) on its own thread, which the kernel wakes
// directly when a request arrives. Made non-blocking, the Go poller served them
// instead: every request woke the thread parked in epoll_wait and then sysmon
// (asleep because every P was idle) before any work began; with the read blocking,
// the reader's P is not idle and neither wake-up is needed. Measured through the
// reference host (bench/, interleaved with the non-blocking build): echo p50 about
// 8-35% lower, and more calls/s with 32 in flight. The cost is one thread held by
// the reader, and a Close that cannot interrupt a read in progress (the process
// exits after serving anyway).
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

// privateDup duplicates fd close-on-exec, with the same (shared) file status flags.
func privateDup(fd int) (int, error) {
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return -1, fmt.Errorf("duplicating fd %d: %w", fd, err)
	}
	return dup, nil
}
