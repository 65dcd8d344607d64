package sandbox

import (
	"github.com/elastic/go-seccomp-bpf"
	"golang.org/x/sys/unix"
)

// What a connect allowlist adds beyond Landlock, which governs TCP ports only:
//
//   - UDP, raw and packet sockets are refused at socket(2) by the seccomp filter (EPERM), so
//     nothing but TCP to a listed port leaves the extension; io_uring, which could open
//     sockets without socket(2), is refused for every confined extension.
//   - With no UDP, the extension cannot ask DNS: the host resolves the allowlist's names
//     when it builds the policy and the init mounts a hosts file of them over /etc/hosts.
//
// Without network (network = false) the empty network namespace already stops UDP; with
// network = true and no allowlist, every socket is declared.

// blockedSockets is the seccomp rule set of an allowlist: socket(AF_INET or AF_INET6, any
// type with bit 1, 2 or 3 set, which is every type but SOCK_STREAM; the SOCK_NONBLOCK and
// SOCK_CLOEXEC flags lie above them), a stream whose protocol is not TCP, and
// socket(AF_PACKET, ...).
func blockedSockets() []seccomp.NameWithConditions {
	notStream := seccomp.Condition{Argument: 1, Operation: seccomp.BitsSet, Value: 0xe}
	var out []seccomp.NameWithConditions
	for _, family := range []uint64{unix.AF_INET, unix.AF_INET6} {
		is := seccomp.Condition{Argument: 0, Operation: seccomp.Equal, Value: family}
		out = append(out,
			seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{is, notStream}},
			// A stream of another protocol than TCP (0 or 6): SCTP, MPTCP and the like.
			seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{is,
				{Argument: 2, Operation: seccomp.GreaterThan, Value: unix.IPPROTO_TCP}}},
			seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{is,
				{Argument: 2, Operation: seccomp.GreaterOrEqual, Value: 1},
				{Argument: 2, Operation: seccomp.LessThan, Value: unix.IPPROTO_TCP}}})
	}
	return append(out, seccomp.NameWithConditions{Name: "socket", Conditions: seccomp.ArgumentConditions{
		{Argument: 0, Operation: seccomp.Equal, Value: unix.AF_PACKET}}})
}
