package process

// Ident names one process for as long as it lives: a pid alone may be recycled, but a pid
// with its start time (clock ticks since boot) on the same boot never is.
type Ident struct {
	Pid   int    `json:"pid"`
	Start uint64 `json:"start"`
}

// procInfo is what the process table says about one process.
type procInfo struct {
	Ident
	ppid, pgid, sid int
	zombie          bool
	// envStart and envEnd are where the environment lies in the process's memory (stat
	// fields 50 and 51): an exec moves it, so they tell a verdict on one environment from
	// the next (scan.go).
	envStart, envEnd uint64
}

// table is a snapshot of every process visible to the host, by pid.
type table map[int]procInfo

// children indexes the snapshot by parent pid.
func (t table) children() map[int][]int {
	out := map[int][]int{}
	for pid, p := range t {
		out[p.ppid] = append(out[p.ppid], pid)
	}
	return out
}

// alive reports whether id is in the snapshot and not a zombie.
func (t table) alive(id Ident) bool {
	p, ok := t[id.Pid]
	return ok && p.Start == id.Start && !p.zombie
}
