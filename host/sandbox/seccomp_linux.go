package sandbox

import (
	"encoding/binary"
	"sync"

	"github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
)

// The seccomp filter is compiled here, by the host, once per shape (with or without a
// connect allowlist), and sent to the init in the policy as the kernel's struct
// sock_filter array: the init then needs no compiler, and no syscall table, of its own.

// deniedCalls are refused with EPERM: debugging other processes, changing mounts or
// namespaces, loading kernel code, the kernel keyring, performance counters and the like.
var deniedCalls = []string{
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	"mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen", "fsconfig",
	"fsmount", "fspick", "mount_setattr", "unshare", "setns",
	"bpf", "perf_event_open", "userfaultfd", "kexec_load", "kexec_file_load",
	"init_module", "finit_module", "delete_module", "keyctl", "add_key", "request_key",
	"reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "settimeofday", "clock_settime",
	"clock_adjtime", "adjtimex", "iopl", "ioperm", "open_by_handle_at", "name_to_handle_at",
	"lookup_dcookie", "vhangup", "personality",
	"io_uring_setup", "io_uring_enter", "io_uring_register", // sockets and files past the filter
}

var (
	filterMu sync.Mutex
	filters  = map[bool][]byte{} // by "has a connect allowlist"
)

// seccompFilter returns the compiled filter for p.
func seccompFilter(p *Policy) ([]byte, error) {
	allowlist := p.Network && len(p.Connect) > 0
	filterMu.Lock()
	defer filterMu.Unlock()
	if f, ok := filters[allowlist]; ok {
		return f, nil
	}
	names := deniedCalls[:0:0]
	for _, n := range deniedCalls {
		if _, ok := syscallNumber(n); ok {
			names = append(names, n)
		}
	}
	groups := []seccomp.SyscallGroup{{Names: names, Action: seccomp.ActionErrno}}
	if allowlist {
		groups = append(groups, seccomp.SyscallGroup{NamesWithCondtions: blockedSockets(), Action: seccomp.ActionErrno})
	}
	policy := seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: groups}
	insts, err := policy.Assemble()
	if err != nil {
		return nil, &Unavailable{Missing: "a seccomp filter (" + err.Error() + ")"}
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, &Unavailable{Missing: "a seccomp filter (" + err.Error() + ")"}
	}
	out := make([]byte, 8*len(raw))
	for i, r := range raw {
		binary.LittleEndian.PutUint16(out[i*8:], r.Op)
		out[i*8+2], out[i*8+3] = r.Jt, r.Jf
		binary.LittleEndian.PutUint32(out[i*8+4:], r.K)
	}
	filters[allowlist] = out
	return out, nil
}

// syscallNumber reports whether this architecture has the call (iopl and ioperm are x86
// only, for instance), so one list serves every architecture.
func syscallNumber(name string) (int, bool) {
	info, err := arch.GetInfo("")
	if err != nil {
		return 0, false
	}
	n, ok := info.SyscallNames[name]
	return n, ok
}
