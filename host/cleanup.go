package host

import (
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/host/process"
)

// scratchRoot holds every generation's scratch directory and the hosts' records.
func (h *Host) scratchRoot() string {
	if h.opts.StateDir != "" {
		return filepath.Join(h.opts.StateDir, "scratch")
	}
	return filepath.Join(os.TempDir(), "octet-host-scratch")
}

// prepareProcesses runs once, before the host's first extension process starts: it
// sweeps what crashed predecessors left on the same scratch root (their processes and
// scratch directories), records this host for its successors, and, with
// Options.Subreaper, makes the host the child subreaper of everything it starts.
func (h *Host) prepareProcesses() {
	h.procOnce.Do(func() {
		root := h.scratchRoot()
		if h.opts.Subreaper {
			if err := process.EnableSubreaper(); err != nil {
				h.opts.Logf("cannot become a child subreaper: %v", err)
			}
		}
		reg, err := process.OpenRegistry(root, h.run)
		if err != nil {
			h.opts.Logf("cannot record this host under %s (a crash will not be swept): %v", root, err)
		} else {
			h.registry = reg
		}
		rep, err := process.Sweep(root, h.run)
		switch {
		case err != nil:
			h.opts.Logf("sweeping %s: %v", root, err)
		case rep.Hosts+rep.Processes+rep.Scratch > 0:
			h.opts.Logf("%s", rep)
		}
		h.swept = rep
	})
}

// Swept reports what the start-up sweep removed (zero before the first process starts).
func (h *Host) Swept() process.SweepReport { return h.swept }

func (h *Host) recordProcess(p *process.Process) {
	if h.registry != nil {
		h.registry.Add(p.Ident())
	}
}

func (h *Host) forgetProcess(p *process.Process) {
	if h.registry != nil {
		h.registry.Remove(p.Ident())
	}
}

// finishProcesses runs at the end of Shutdown: with Options.Subreaper every orphan the
// host adopted is killed, then the record goes (nothing is left for a successor to sweep).
func (h *Host) finishProcesses() {
	if h.opts.Subreaper {
		if n := process.KillAdopted(); n > 0 {
			h.opts.Logf("killed %d orphaned descendant(s) of extensions at shutdown", n)
		}
	}
	if h.registry != nil {
		h.registry.Close()
	}
}
