package process

import (
	"os"
	"os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

var (
	reaperOnce sync.Once
	reaperErr  error
)

// EnableSubreaper makes this process a child subreaper (PR_SET_CHILD_SUBREAPER): an
// orphan below it — a grandchild whose parent, the extension, died — is re-parented to the
// host instead of init, so it stays in reach of KillFamily and KillAdopted. It also starts
// the reaper that collects the exit status of adopted orphans, which no os/exec waits for.
//
// It is process-wide. The reaper only reaps zombies outside the host's own process group
// that are not extension leaders, so children an embedding program starts in its own group
// with os/exec keep their exit status.
func EnableSubreaper() error {
	reaperOnce.Do(func() {
		if reaperErr = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); reaperErr != nil {
			return
		}
		ch := make(chan os.Signal, 16)
		signal.Notify(ch, syscall.SIGCHLD)
		go func() {
			for range ch {
				reapAdopted()
			}
		}()
	})
	return reaperErr
}

// adopted lists the live or dead children of this process that it did not start as
// extension leaders and that are outside its process group. Caller holds startMu.
func adopted(t table) []procInfo {
	self, own := os.Getpid(), syscall.Getpgrp()
	var out []procInfo
	for pid, p := range t {
		if p.ppid == self && p.pgid != own && !leaders[pid] {
			out = append(out, p)
		}
	}
	return out
}

// reapAdopted collects every adopted orphan that has exited.
func reapAdopted() {
	startMu.RLock()
	defer startMu.RUnlock()
	for _, p := range adopted(currentTable().procs) {
		if p.zombie {
			var ws unix.WaitStatus
			_, _ = unix.Wait4(p.Pid, &ws, unix.WNOHANG, nil)
		}
	}
}

// KillAdopted SIGKILLs every live adopted orphan and reaps it: at host shutdown nothing an
// extension left behind survives, even a process that left its group, session and
// environment. It returns the number killed.
func KillAdopted() int {
	n := 0
	for range familyRounds {
		startMu.RLock()
		var live []Ident
		for _, p := range adopted(currentTable().procs) {
			if !p.zombie {
				live = append(live, p.Ident)
			}
		}
		startMu.RUnlock()
		if len(live) == 0 {
			break
		}
		n += len(live)
		signalIdents(live, syscall.SIGKILL)
		waitGone(live, familyWait)
		reapAdopted()
	}
	reapAdopted()
	return n
}
