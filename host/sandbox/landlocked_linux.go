package sandbox

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/octet-kit/octet/host/sandbox/sandboxinit"
)

// StartLandlocked starts cmd confined by Landlock alone: the filesystem and TCP rules of p,
// applied to a thread of this process made for the purpose, which starts cmd and is then
// thrown away (a locked thread whose goroutine ends dies with it). No namespace, no init:
// for a process that is itself confined, where a nested sandbox cannot mount its /proc,
// such as the MCP servers octet-mcp starts. The caller resolves cmd.Path beforehand.
func StartLandlocked(cmd *exec.Cmd, p *Policy) error {
	if err := Available(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends restricted, with this goroutine
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			done <- &Unavailable{Missing: "no_new_privs (" + err.Error() + ")"}
			return
		}
		if err := sandboxinit.ApplyLandlock(p); err != nil {
			done <- err
			return
		}
		done <- cmd.Start()
	}()
	return <-done
}
