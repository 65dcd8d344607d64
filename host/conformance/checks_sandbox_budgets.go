package conformance

import (
	"fmt"
	"syscall"
	"time"

	"github.com/octet-kit/octet/host/sandbox"
)

// The sandbox's budgets and its no-orphans guarantee, proven with the fixture's
// sandbox_probe: the check counts the extension's processes, reads its mapped memory and
// looks for its escaped grandchild in the host's /proc, never taking the probe's word.

// Bounds of what the checks ask the probe to try (the probe bounds them as well).
const (
	probeMaxSpawn = 1024
	probeMaxMiB   = 4096
)

func init() {
	for _, c := range []*Check{{
		Name:        "sandbox.process_budget",
		Description: "the extension cannot run more processes than capabilities.budgets.processes (default 256): asked to start 16 more, it starts fewer",
		Run:         checkProcessBudget,
	}, {
		Name:        "sandbox.memory_budget",
		Description: "the extension cannot map more private memory than capabilities.budgets.memory_mb: asked for 16 MiB more, its VmData stays within the budget",
		Run:         checkMemoryBudget,
	}, {
		Name:        "sandbox.orphans_die",
		Description: "a grandchild in a session of its own, orphaned on purpose, dies when the extension's process is SIGKILLed as a dying host's parent-death signal does",
		Run:         checkOrphansDie,
	}} {
		c.Requirement = "docs/sandbox.md#budgets and #how-it-is-enforced (issue 26: budgets hold, no orphans by construction)"
		c.Tier, c.Tools = Conditional, []string{"sandbox_probe"}
		register(c)
	}
}

func checkProcessBudget(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	budget := t.Ext.Manifest.Capabilities.Budgets.Processes
	if budget == 0 {
		budget = sandbox.DefaultProcesses
	}
	n := int(budget) + 16
	if n > probeMaxSpawn {
		return skip("a process budget of %d is more than the check starts (%d)", budget, probeMaxSpawn-16)
	}
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	r, err := t.probe(s, "spawn", "", n)
	if err != nil {
		return err
	}
	sleeping := 0
	for _, p := range descendants(s.proc.Pid()) {
		if p.comm == "sleep" {
			sleeping++
		}
	}
	if _, err := t.probe(s, "reap", "", 0); err != nil {
		return err
	}
	if sleeping >= n {
		return fail(fmt.Sprintf("fewer than %d processes (budget %d)", n, budget), "all %d started (the probe reported %d, %q)", sleeping, r.Count, r.Detail)
	}
	if sleeping == 0 {
		return fail("the probe to start some processes under the budget", "none started (%q): the budget is not shown to hold", r.Detail)
	}
	t.Note("%d of %d started under a budget of %d: %s", sleeping, n, budget, r.Detail)
	return nil
}

func checkMemoryBudget(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	budget := t.Ext.Manifest.Capabilities.Budgets.MemoryMB
	if budget == 0 {
		return skip("the manifest declares no capabilities.budgets.memory_mb")
	}
	n := int(budget) + 16
	if n > probeMaxMiB {
		return skip("a memory budget of %d MiB is more than the check asks for (%d MiB)", budget, probeMaxMiB-16)
	}
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	pid, err := entrypointPid(s.proc.Pid(), t.Timeout())
	if err != nil {
		return err
	}
	r, err := t.probe(s, "allocate", "", n)
	if err != nil {
		// The budget may end the process instead of refusing the allocation.
		if _, running := vmDataMiB(pid); !running {
			t.Note("the allocation ended the extension: %v", err)
			return nil
		}
		return err
	}
	data, running := vmDataMiB(pid)
	if running && data > budget {
		return fail(fmt.Sprintf("VmData within the %d MiB budget after asking for %d MiB", budget, n), "VmData is %d MiB (the probe reported ok=%v %q)", data, r.OK, r.Detail)
	}
	_, _ = t.probe(s, "release", "", 0)
	t.Note("VmData %d MiB after asking for %d MiB: %s", data, n, r.Detail)
	return nil
}

func checkOrphansDie(t *T) error {
	if err := confinable(); err != nil {
		return err
	}
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	mark := "octet-orphan-" + token()
	r, err := t.probe(s, "orphan", mark, 0)
	if err != nil {
		return err
	}
	// The probe's shell has exited; its grandchild starts on its own schedule.
	var orphans []procInfo
	deadline := time.Now().Add(t.Timeout())
	for len(orphans) == 0 {
		if orphans = marked(mark); len(orphans) == 0 && time.Now().After(deadline) {
			return fail("the probe's orphaned grandchild running", "no process carries %s (probe ok=%v %q)", mark, r.OK, r.Detail)
		}
		if len(orphans) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	// What a SIGKILLed host's parent-death signal does: the process the host started dies.
	_ = syscall.Kill(s.proc.Pid(), syscall.SIGKILL)
	deadline = time.Now().Add(t.Timeout())
	for {
		var left []procInfo
		for _, p := range marked(mark) {
			if alive(p) {
				left = append(left, p)
			}
		}
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			for _, p := range left {
				// The check leaves nothing behind: the grandchild leads its own group.
				_ = syscall.Kill(-p.pid, syscall.SIGKILL)
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
			}
			return fail("the orphaned grandchild gone once the extension's process was SIGKILLed", "pid %d (%s) outlived it by %s", left[0].pid, left[0].comm, t.Timeout())
		}
		time.Sleep(5 * time.Millisecond)
	}
}
