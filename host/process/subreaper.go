package process

import "sync"

// leaders are the extension processes this host started and whose exit status os/exec
// waits for; the reaper never reaps them. startMu is held while one is started and
// registered, so the reaper cannot mistake a leader that exits at once for an orphan.
var (
	startMu sync.RWMutex
	leaders = map[int]bool{}
)

func addLeader(pid int)    { leaders[pid] = true } // caller holds startMu
func removeLeader(pid int) { startMu.Lock(); delete(leaders, pid); startMu.Unlock() }
