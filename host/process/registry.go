package process

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A host that is SIGKILLed cannot clean up: Pdeathsig ends its extensions, but their
// descendants and the per-generation scratch directories stay. So every host records
// itself and the extension processes it starts under <scratch root>/.hosts/<run>.json, and
// the next host to start on the same scratch root sweeps what dead hosts left (Sweep).
//
// Scratch directories are <scratch root>/<name>/<name>-<run>-<generation>, and every
// extension process carries OCTET_EXTENSION_SCRATCH naming its own: both name the run that
// made them, which is how the sweep tells a dead host's leftovers from a live host's.

const hostsDir = ".hosts"

type hostRecord struct {
	Boot    string  `json:"boot"`
	Host    Ident   `json:"host"`
	Leaders []Ident `json:"leaders"`
}

// Registry is this host's record.
type Registry struct {
	path   string
	mu     sync.Mutex
	rec    hostRecord
	closed bool // a generation ending after Close must not write the record back
}

// OpenRegistry writes this host's record for run under scratchRoot.
func OpenRegistry(scratchRoot, run string) (*Registry, error) {
	dir := filepath.Join(scratchRoot, hostsDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	r := &Registry{path: filepath.Join(dir, run+".json"), rec: hostRecord{Boot: bootID(), Host: identOf(os.Getpid()), Leaders: []Ident{}}}
	return r, r.write()
}

func (r *Registry) write() error {
	if r.closed {
		return nil
	}
	data, _ := json.Marshal(r.rec)
	tmp := r.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, r.path) // a reader sees the old record or the new one
}

// Add records an extension process the host started.
func (r *Registry) Add(id Ident) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rec.Leaders = append(r.rec.Leaders, id)
	_ = r.write()
}

// Remove forgets an extension process that has been reaped.
func (r *Registry) Remove(id Ident) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, l := range r.rec.Leaders {
		if l == id {
			r.rec.Leaders = append(r.rec.Leaders[:i], r.rec.Leaders[i+1:]...)
			break
		}
	}
	_ = r.write()
}

// Close deletes the record: the host ended cleanly.
func (r *Registry) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	_ = os.Remove(r.path)
}

// SweepReport says what a sweep removed.
type SweepReport struct {
	Hosts     int // records of dead hosts
	Processes int // processes killed
	Scratch   int // scratch directories removed
}

// Sweep ends what hosts that died without cleaning up left under scratchRoot: their
// extension processes and every process carrying one of their scratch markers (SIGKILL,
// each checked by start time so a recycled pid is never signalled), and their scratch
// directories. Records and scratch directories of live hosts are left alone; self is the
// caller's own run.
func Sweep(scratchRoot, self string) (SweepReport, error) {
	var rep SweepReport
	dir := filepath.Join(scratchRoot, hostsDir)
	ents, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return rep, err
	}
	// The process table is read only when there is something to judge by it (a record of
	// another host, a scratch directory of another run): a host that starts after clean
	// shutdowns reads none, so its start costs nothing per process on the machine.
	var t table
	tab := func() table {
		if t == nil {
			t = currentTable().procs
		}
		return t
	}
	boot := bootID()
	live := map[string]bool{self: true}
	dead := map[string]bool{} // runs with positive evidence of death: a record of a dead host
	var kill []Ident
	for _, e := range ents {
		if tmp, ok := strings.CutSuffix(e.Name(), ".json.tmp"); ok && tmp != self {
			// a record write a crash interrupted; the record itself (if any) is next to it
			if fi, err := e.Info(); err == nil && time.Since(fi.ModTime()) > unclaimedAge {
				_ = os.Remove(filepath.Join(dir, e.Name()))
			}
			continue
		}
		run, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || run == self {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		var rec hostRecord
		if err != nil || json.Unmarshal(data, &rec) != nil {
			continue // being written; a later sweep reads it
		}
		if hostAlive(tab(), rec, boot) {
			live[run] = true
			continue
		}
		if tracking && rec.Boot == boot {
			t := tab()
			for _, l := range rec.Leaders {
				if t.alive(l) {
					kill = append(kill, l)
				}
				// the dead leader's group, while its pid is not recycled (family.go)
				if lp, ok := t[l.Pid]; !ok || lp.Start == l.Start {
					for _, p := range t {
						if p.pgid == l.Pid && p.Start >= l.Start && !p.zombie {
							kill = append(kill, p.Ident)
						}
					}
				}
			}
		}
		dead[run] = true
		rep.Hosts++
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
	// A process is killed for its marker only when its run is known dead: a host without a
	// record (an older version, running now) must keep its extensions.
	inUse := map[string]bool{} // runs some live process still carries the marker of
	if tracking && (len(dead) > 0 || foreignScratch(scratchRoot, live)) {
		t := tab()
		prefix := "OCTET_EXTENSION_SCRATCH=" + scratchRoot + string(filepath.Separator)
		me := os.Getpid()
		for pid, p := range t {
			if pid == me || p.zombie {
				continue
			}
			if kv, ok := environHas(p, prefix, true); ok {
				if run, ok := runOfScratch(strings.TrimPrefix(kv, "OCTET_EXTENSION_SCRATCH=")); ok {
					if dead[run] {
						kill = append(kill, p.Ident)
					} else {
						inUse[run] = true
					}
				}
			}
		}
	}
	kill = unique(kill)
	signalIdents(kill, syscall.SIGKILL)
	waitGone(kill, familyWait)
	rep.Processes = len(kill)
	for extDir, gens := range scratchGenerations(scratchRoot) {
		for _, p := range gens {
			if run, ok := runOfScratch(p); ok && (dead[run] || unclaimed(p, run, live, inUse)) {
				if os.RemoveAll(p) == nil {
					rep.Scratch++
				}
			}
		}
		_ = os.Remove(extDir) // only if now empty
	}
	return rep, nil
}

// scratchGenerations yields each extension directory under scratchRoot (<extension>/,
// dot-names skipped: they are the host's own) with the paths of its generation
// directories. Unreadable directories yield nothing: a sweep judges what it can read.
func scratchGenerations(scratchRoot string) iter.Seq2[string, []string] {
	return func(yield func(string, []string) bool) {
		names, _ := os.ReadDir(scratchRoot)
		for _, n := range names {
			if !n.IsDir() || strings.HasPrefix(n.Name(), ".") {
				continue
			}
			extDir := filepath.Join(scratchRoot, n.Name())
			gens, _ := os.ReadDir(extDir)
			paths := make([]string, len(gens))
			for i, g := range gens {
				paths[i] = filepath.Join(extDir, g.Name())
			}
			if !yield(extDir, paths) {
				return
			}
		}
	}
}

// foreignScratch reports whether scratchRoot holds a generation directory of a run that
// is not known to be live: only then can a marker decide anything.
func foreignScratch(scratchRoot string, live map[string]bool) bool {
	for _, gens := range scratchGenerations(scratchRoot) {
		for _, p := range gens {
			if run, ok := runOfScratch(p); ok && !live[run] {
				return true
			}
		}
	}
	return false
}

// unclaimed reports whether a scratch directory of a run without a record (a host from
// before records, or one that crashed before writing its own) is safe to remove: no live
// process carries its run's marker, and it is older than a start-up could take, so a host
// that has just created it and not yet started the process keeps it. Without /proc nothing
// can show it unused.
func unclaimed(p, run string, live, inUse map[string]bool) bool {
	if !tracking || live[run] || inUse[run] {
		return false
	}
	fi, err := os.Lstat(p)
	return err == nil && time.Since(fi.ModTime()) > unclaimedAge
}

// unclaimedAge is how old an unclaimed scratch directory must be before a sweep removes it.
const unclaimedAge = time.Minute

func hostAlive(t table, rec hostRecord, boot string) bool {
	if !tracking {
		// Without start times a live pid may be a recycled one; assume the host lives
		// rather than sweep a live host's scratch.
		return syscall.Kill(rec.Host.Pid, 0) == nil
	}
	return rec.Boot == boot && t.alive(rec.Host)
}

// runOfScratch reads the run from a scratch path <root>/<name>/<name>-<run>-<generation>.
func runOfScratch(p string) (string, bool) {
	name := filepath.Base(filepath.Dir(p))
	rest, ok := strings.CutPrefix(filepath.Base(p), name+"-")
	if !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '-')
	if i <= 0 {
		return "", false
	}
	return rest[:i], true
}

func unique(ids []Ident) []Ident {
	seen := map[Ident]bool{}
	out := ids[:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// String is for diagnostics.
func (r SweepReport) String() string {
	return fmt.Sprintf("swept %d dead host record(s): %d process(es) killed, %d scratch dir(s) removed", r.Hosts, r.Processes, r.Scratch)
}
