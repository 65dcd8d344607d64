package process

import (
	"syscall"
	"time"
)

// The family of an extension process is every process that descends from it, found by
// four rules so that none escapes by leaving the tree, the group or the session:
//
//   - its process tree while the ancestry is intact (ppid links from the leader or from a
//     member seen before), which finds descendants that called setsid;
//   - its process group (pgid = the leader's pid), which finds same-group descendants even
//     after their parent died and they were re-parented;
//   - the generation's marker in the initial environment (OCTET_EXTENSION_SCRATCH, unique
//     per generation and inherited by default), which finds re-parented setsid orphans;
//   - every member seen by an earlier scan (by pid and start time).
//
// A descendant that calls setsid, clears its environment and loses its parent before any
// scan sees it is found by none of these; the host's subreaper adoption (KillAdopted) is
// the last line for those. On platforms without /proc only the process group is signalled.

// Each rule reads the process table (one scan, shared by stops that happen at the same
// time) and the environment only of processes no earlier rule found, once per process
// (scan.go), so a stop costs a few system calls per process on the machine and no more.

// familyRounds bounds KillFamily: each round kills what a scan finds and waits for it to
// die; a member forking while it dies shows up in the next round.
const (
	familyRounds = 20
	familyWait   = 2 * time.Second
)

// descendants returns every live member of the family in s, excluding the leader, and
// remembers them.
func (p *Process) descendants(s *scan) []Ident {
	leader := p.leader
	include := map[int]bool{}
	t, kids := s.procs, s.kids
	var queue []int
	if t.alive(leader) {
		queue = append(queue, leader.Pid)
	}
	p.famMu.Lock()
	for id := range p.family {
		if t.alive(id) {
			include[id.Pid] = true
			queue = append(queue, id.Pid)
		} else {
			delete(p.family, id)
		}
	}
	p.famMu.Unlock()
	// The group rule holds while the leader's pid is not recycled: Linux never gives a new
	// process the pid of a live group, so the pgid still names our group.
	if lp, ok := t[leader.Pid]; !ok || lp.Start == leader.Start {
		for pid, pi := range t {
			if pi.pgid == leader.Pid && pi.Start >= leader.Start && !pi.zombie {
				include[pid] = true
				queue = append(queue, pid)
			}
		}
	}
	if p.marker != "" {
		for pid, pi := range t {
			if include[pid] || pi.zombie || pi.Start < leader.Start || pid == leader.Pid {
				continue
			}
			if _, ok := environHas(pi, p.marker, false); ok {
				include[pid] = true
				queue = append(queue, pid)
			}
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, k := range kids[pid] {
			if !include[k] && !t[k].zombie {
				include[k] = true
				queue = append(queue, k)
			}
		}
	}
	delete(include, leader.Pid)
	out := make([]Ident, 0, len(include))
	p.famMu.Lock()
	for pid := range include {
		id := t[pid].Ident
		out = append(out, id)
		p.family[id] = true
	}
	p.famMu.Unlock()
	return out
}

// Snapshot remembers the family's current members. The host takes one before it asks the
// extension to shut down: once the leader has exited, a setsid descendant is no longer in
// its tree, and one that also emptied its environment would otherwise be unknown.
func (p *Process) Snapshot() {
	if tracking && p.launch == nil {
		p.descendants(currentTable())
	}
}

// KillFamily SIGKILLs the process group and every descendant, repeating until a scan finds
// none alive, and returns what survived familyRounds (normally nothing).
func (p *Process) KillFamily() []Ident {
	_ = p.Signal(syscall.SIGKILL)
	if !tracking || p.launch != nil {
		// Confined: the init was PID 1 of the extension's namespace; once it is reaped the
		// kernel has killed every process of that namespace, so there is nothing to scan for.
		return nil
	}
	var fam []Ident
	for range familyRounds {
		fam = p.descendants(currentTable())
		if len(fam) == 0 {
			return nil
		}
		signalIdents(fam, syscall.SIGKILL)
		_ = p.Signal(syscall.SIGKILL)
		waitGone(fam, familyWait)
	}
	return fam
}

// signalIdents signals each process that is still the one named (same start time).
func signalIdents(ids []Ident, sig syscall.Signal) {
	for _, id := range ids {
		if cur, ok := readStat(id.Pid); ok && cur.Start == id.Start && !cur.zombie {
			_ = syscall.Kill(id.Pid, sig)
		}
	}
}

// waitGone polls until every process in ids has exited (or is a zombie awaiting its
// parent) or the deadline passes.
func waitGone(ids []Ident, within time.Duration) {
	deadline := time.Now().Add(within)
	for {
		left := false
		for _, id := range ids {
			if cur, ok := readStat(id.Pid); ok && cur.Start == id.Start && !cur.zombie {
				left = true
				break
			}
		}
		if !left || time.Now().After(deadline) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
