package process

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// Children die with the host: Pdeathsig asks the kernel to SIGKILL the extension when its
// parent dies. The kernel means the parent *thread*, and Go may retire threads, so every
// extension is forked from one goroutine locked to its OS thread for the life of the host
// (it never returns, so the thread is never retired).

type spawnJob struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	spawnOnce sync.Once
	spawnReq  chan spawnJob
)

func spawner() {
	runtime.LockOSThread() // never unlocked, on purpose
	for j := range spawnReq {
		j.done <- j.cmd.Start()
	}
}

// startCmd starts cmd on the spawner thread with Pdeathsig set.
func startCmd(cmd *exec.Cmd) error {
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	spawnOnce.Do(func() {
		spawnReq = make(chan spawnJob)
		go spawner()
	})
	j := spawnJob{cmd: cmd, done: make(chan error, 1)}
	spawnReq <- j
	return <-j.done
}
