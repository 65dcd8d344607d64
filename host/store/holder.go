package store

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// holderSelf names this process in a claim: the boot it runs in, its pid and the pid's
// start time, so a later reader on this machine can tell a live holder from a dead one whose
// pid was reused.
var holderSelf = holderOf(os.Getpid())

func holderOf(pid int) string {
	return fmt.Sprintf("boot=%s pid=%d start=%s", bootID(), pid, startTime(pid))
}

// holderGone says the claim's holder is known to be dead: it ran in this boot, and its pid
// is gone or now belongs to a process started at another time. Anything not known (another
// machine sharing the directory, a system without /proc) counts as alive; the lease ends it.
func holderGone(holder string) bool {
	f := map[string]string{}
	for _, kv := range strings.Fields(holder) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			f[k] = v
		}
	}
	boot := bootID()
	if boot == "" || f["boot"] != boot || f["start"] == "" {
		return false
	}
	pid, err := strconv.Atoi(f["pid"])
	if err != nil || pid <= 0 {
		return false
	}
	return startTime(pid) != f["start"]
}

func bootID() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// startTime is field 22 of /proc/PID/stat (clock ticks since boot), "" when the process
// does not exist, has exited (a zombie not yet reaped) or there is no /proc.
func startTime(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The command name (field 2) may hold spaces and parentheses: count after its last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 20 || fields[0] == "Z" || fields[0] == "X" {
		return ""
	}
	return fields[19] // field 3 is fields[0]; field 22 is fields[19]
}
