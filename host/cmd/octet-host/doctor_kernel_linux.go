package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// landlockCreateRulesetVersion is LANDLOCK_CREATE_RULESET_VERSION: with a nil attribute and
// size 0, landlock_create_ruleset returns the kernel's Landlock ABI version.
const landlockCreateRulesetVersion = 1

// kernelFindings asks the kernel itself about the features the sandbox uses.
func kernelFindings() []finding {
	var out []finding
	abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, landlockCreateRulesetVersion)
	switch {
	case errno == unix.ENOSYS:
		out = append(out, finding{Check: "kernel", Severity: "warning", Subject: "landlock", Message: "the kernel has no Landlock (ENOSYS): extensions cannot be confined to their files", Fix: "use Linux 5.13 or newer with CONFIG_SECURITY_LANDLOCK"})
	case errno == unix.EOPNOTSUPP:
		out = append(out, finding{Check: "kernel", Severity: "warning", Subject: "landlock", Message: "Landlock is built in but disabled (EOPNOTSUPP)", Fix: "add landlock to the lsm= kernel parameter"})
	case errno != 0:
		out = append(out, finding{Check: "kernel", Severity: "warning", Subject: "landlock", Message: "landlock_create_ruleset: " + errno.Error(), Fix: "check the kernel's Landlock support"})
	default:
		out = append(out, finding{Check: "kernel", Severity: "ok", Subject: "landlock", Message: fmt.Sprintf("Landlock ABI %d", abi)})
	}
	out = append(out, userNamespaces())
	if err := unix.Prctl(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err == unix.EINVAL {
		out = append(out, finding{Check: "kernel", Severity: "warning", Subject: "seccomp", Message: "the kernel has no seccomp (PR_GET_SECCOMP: EINVAL)", Fix: "use a kernel with CONFIG_SECCOMP_FILTER"})
	} else {
		out = append(out, finding{Check: "kernel", Severity: "ok", Subject: "seccomp", Message: "available"})
	}
	return out
}

// userNamespaces reads the sysctls that allow or forbid unprivileged user namespaces.
func userNamespaces() finding {
	read := func(p string) (int, bool) {
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, false
		}
		n, err := strconv.Atoi(strings.TrimSpace(string(b)))
		return n, err == nil
	}
	if n, ok := read("/proc/sys/user/max_user_namespaces"); ok && n == 0 {
		return finding{Check: "kernel", Severity: "warning", Subject: "user namespaces", Message: "user.max_user_namespaces is 0", Fix: "sysctl -w user.max_user_namespaces=15000"}
	}
	if n, ok := read("/proc/sys/kernel/unprivileged_userns_clone"); ok && n == 0 {
		return finding{Check: "kernel", Severity: "warning", Subject: "user namespaces", Message: "kernel.unprivileged_userns_clone is 0", Fix: "sysctl -w kernel.unprivileged_userns_clone=1"}
	}
	if n, ok := read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); ok && n == 1 {
		return finding{Check: "kernel", Severity: "warning", Subject: "user namespaces", Message: "AppArmor restricts unprivileged user namespaces", Fix: "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for octet-host"}
	}
	if _, err := os.Stat("/proc/self/ns/user"); err != nil {
		return finding{Check: "kernel", Severity: "warning", Subject: "user namespaces", Message: "no /proc/self/ns/user: " + err.Error(), Fix: "use a kernel with CONFIG_USER_NS"}
	}
	return finding{Check: "kernel", Severity: "ok", Subject: "user namespaces", Message: "unprivileged user namespaces allowed"}
}
