package process

import (
	"strings"
	"sync"
	"sync/atomic"
)

// A scan reads the whole process table, and a stop takes several (family.go). Two things
// keep N hosts stopping at once from costing N² reads:
//
//   - concurrent callers share one scan: a caller joins the next scan that has not yet
//     started, so what it gets was read entirely after it asked, as its own read would be;
//   - each process's environment is read once, not once per stop that looks for a marker:
//     the verdict (its OCTET_EXTENSION_SCRATCH entries) is kept per process and
//     environment (pid, start time, the environment's address range, which an exec
//     changes), and forgotten when the process is gone.

// scan is one read of the process table with its parent index.
type scan struct {
	done   chan struct{}
	procs  table
	kids   map[int][]int
	joined int // callers waiting for it (under scans.mu)
}

var scans struct {
	mu      sync.Mutex
	running bool  // a scan is being read
	next    *scan // the scan callers arriving now will get, started when the running one ends
}

// currentTable returns a scan read after the call began, shared with concurrent callers.
// Callers must not modify it.
func currentTable() *scan {
	scans.mu.Lock()
	if scans.next == nil {
		scans.next = &scan{done: make(chan struct{})}
	}
	mine := scans.next
	mine.joined++
	if scans.running {
		scans.mu.Unlock()
		<-mine.done
		return mine
	}
	scans.running, scans.next = true, nil
	scans.mu.Unlock()
	runScans(mine)
	return mine
}

// runScans reads s, then any scan callers joined meanwhile (in the background, so the
// first caller is not held up by later ones).
func runScans(s *scan) {
	tableReads.Add(1)
	s.procs = readTable()
	s.kids = s.procs.children()
	pruneEnvCache(s.procs)
	close(s.done)
	scans.mu.Lock()
	next := scans.next
	if next == nil {
		scans.running = false
		scans.mu.Unlock()
		return
	}
	scans.next = nil
	scans.mu.Unlock()
	go runScans(next)
}

// tableReads counts the scans read (tests: which paths read the table).
var tableReads atomic.Int64

type envKey struct {
	Ident
	envStart, envEnd uint64
}

var envCache struct {
	mu sync.Mutex
	m  map[envKey]*envEntry
}

// envEntry is one environment's verdict: its OCTET_EXTENSION_SCRATCH entries (nil: none),
// known once ready is closed.
type envEntry struct {
	ready   chan struct{}
	entries []string
	ok      bool
}

// readEnviron reads a process's scratch entries (a variable so a test can make it hang).
var readEnviron = readScratchEnv

// scratchEnv returns p's OCTET_EXTENSION_SCRATCH entries, reading its environment only
// the first time this environment is asked about. An unreadable environment is not
// remembered (it may become readable, or be an exec in progress). The read happens
// outside envCache.mu: reading /proc/<pid>/environ takes the target's memory-map lock and
// can hang on a process stuck in the kernel (a dead FUSE or NFS mount), and the scan that
// prunes the cache, and with it every stop, must not wait on that. Concurrent askers of
// the same environment wait for the one read.
func scratchEnv(p procInfo) ([]string, bool) {
	if p.envStart == 0 && p.envEnd == 0 {
		// the range is hidden from us (another user's process): read, never remember
		return readEnviron(p.Pid)
	}
	k := envKey{p.Ident, p.envStart, p.envEnd}
	envCache.mu.Lock()
	if e, ok := envCache.m[k]; ok {
		envCache.mu.Unlock()
		<-e.ready
		if e.ok {
			return e.entries, true
		}
		return readEnviron(p.Pid) // that read failed; this asker tries its own
	}
	if envCache.m == nil {
		envCache.m = map[envKey]*envEntry{}
	}
	e := &envEntry{ready: make(chan struct{})}
	envCache.m[k] = e
	envCache.mu.Unlock()
	e.entries, e.ok = readEnviron(p.Pid)
	close(e.ready)
	if !e.ok {
		envCache.mu.Lock()
		if envCache.m[k] == e {
			delete(envCache.m, k)
		}
		envCache.mu.Unlock()
	}
	return e.entries, e.ok
}

// environHas reports whether p's initial environment holds the entry kv
// ("OCTET_EXTENSION_SCRATCH=value") or, with prefix set, an entry starting with kv.
func environHas(p procInfo, kv string, prefix bool) (string, bool) {
	entries, _ := scratchEnv(p)
	for _, s := range entries {
		if s == kv || (prefix && strings.HasPrefix(s, kv)) {
			return s, true
		}
	}
	return "", false
}

// pruneEnvCache forgets the verdicts on processes t no longer holds, which bounds the
// cache by the number of live processes.
func pruneEnvCache(t table) {
	envCache.mu.Lock()
	defer envCache.mu.Unlock()
	for k := range envCache.m {
		if p, ok := t[k.Pid]; !ok || p.Start != k.Start || p.envStart != k.envStart || p.envEnd != k.envEnd {
			delete(envCache.m, k)
		}
	}
}
