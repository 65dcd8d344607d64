package conformance

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// The sandbox check: the extension runs where its manifest's [capabilities] put it. The
// evidence is the kernel's own, read from /proc on the host side: the entrypoint's
// namespaces, its no_new_privs bit, its seccomp filter and its process budget. Nothing the
// extension says is taken for it, so the check binds every extension alike. The denials
// themselves (undeclared read, write and connect; declared ones allowed; orphans dying with
// a SIGKILLed host) are proven by host/sandbox's tests against real processes.

func init() {
	register(&Check{
		Name:        "sandbox.confined",
		Description: "the entrypoint runs under the host's sandbox: its own user, PID, IPC and mount namespaces (and network namespace without capabilities.network), no_new_privs, a seccomp filter and the process budget",
		Requirement: "docs/sandbox.md (issue 26: the manifest is the policy, the kernel enforces it)",
		Tier:        Required,
		Run:         checkSandboxConfined,
	})
}

func checkSandboxConfined(t *T) error {
	if _, err := os.Stat("/proc/self/ns/user"); err != nil {
		return skip("no /proc namespaces on this platform")
	}
	s, err := t.Start(StartOptions{})
	if err != nil {
		return err
	}
	defer s.Kill(time.Second)
	pid, err := entrypointPid(s.proc.Pid(), t.Timeout())
	if err != nil {
		return err
	}
	kinds := []string{"user", "pid", "ipc", "mnt"}
	if !t.Ext.Manifest.Capabilities.Network {
		kinds = append(kinds, "net")
	}
	for _, k := range kinds {
		mine, _ := os.Readlink("/proc/self/ns/" + k)
		its, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/%s", pid, k))
		if err != nil {
			return fail("the entrypoint's "+k+" namespace readable", "%v", err)
		}
		if its == mine {
			return fail("the entrypoint in a "+k+" namespace of its own", "it shares the host's (%s): the extension runs unconfined", its)
		}
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return fail("the entrypoint's /proc status readable", "%v", err)
	}
	for _, want := range []string{"NoNewPrivs:\t1", "Seccomp:\t2"} {
		if !strings.Contains(string(status), want+"\n") {
			return fail("the entrypoint's status to show "+strings.ReplaceAll(want, "\t", " "), "it does not: no_new_privs or the seccomp filter is missing")
		}
	}
	limits, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid))
	if err != nil {
		return fail("the entrypoint's limits readable", "%v", err)
	}
	if strings.Contains(limitLine(string(limits), "Max processes"), "unlimited") {
		return fail("a process budget (RLIMIT_NPROC)", "Max processes is unlimited")
	}
	return nil
}

// entrypointPid finds the process the sandbox's init started (its only child) in the host's
// PID namespace. Unconfined, the session's process is the entrypoint itself.
func entrypointPid(initPid int, within time.Duration) (int, error) {
	deadline := time.Now().Add(within)
	for {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", initPid, initPid))
		if err == nil {
			if f := strings.Fields(string(b)); len(f) > 0 {
				return strconv.Atoi(f[0])
			}
		}
		exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", initPid))
		self, _ := os.Readlink("/proc/self/exe")
		if exe != "" && exe != self {
			return initPid, nil // not started through the init: judged as it is
		}
		if time.Now().After(deadline) {
			return 0, fail("the entrypoint started", "no child of the session's process %d within %s", initPid, within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func limitLine(limits, name string) string {
	for _, l := range strings.Split(limits, "\n") {
		if strings.HasPrefix(l, name) {
			return l
		}
	}
	return ""
}

// group is the process group of the extension's own processes, for the checks that
// measure them: the entrypoint's when confined (it leads its group inside the sandbox,
// under the init), else the session process's.
func (s *Session) group(t *T) int {
	if s.proc.Policy() == nil {
		return s.proc.Pid()
	}
	if pid, err := entrypointPid(s.proc.Pid(), t.Timeout()); err == nil {
		return pid
	}
	return s.proc.Pid()
}
