package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The process budget of a host running as root. RLIMIT_NPROC does not bind the root user
// (the kernel exempts it), and the namespace's root is the operator, so as root the budget
// would be a number on paper. A pids cgroup binds everyone: the host makes one per start
// with pids.max = the budget plus the init's own threads and moves the init into it while the
// init's binary loads; the init starts nothing before then (Launch.Admit), so every process
// of the extension is counted. Without a writable
// pids hierarchy a root host refuses the start (sandbox_unavailable), as for any missing
// mechanism. Not root, the rlimit binds and no cgroup is made.

var (
	pidsOnce sync.Once
	pidsRoot string // the host's own cgroup directory in the pids hierarchy
	pidsErr  error
	pidsSeq  atomic.Int64
)

// needPidsCgroup reports whether a start needs the cgroup: the host is root.
func needPidsCgroup(p *Policy) bool { return os.Geteuid() == 0 && p.Processes > 0 }

// newPidsCgroup makes a fresh cgroup bounded to limit tasks and returns its directory.
func newPidsCgroup(limit int64) (string, error) {
	pidsOnce.Do(func() { pidsRoot, pidsErr = findPidsRoot() })
	if pidsErr != nil {
		return "", &Unavailable{Missing: "a pids cgroup for the process budget, which RLIMIT_NPROC does not enforce for root (" + pidsErr.Error() + ")"}
	}
	dir := filepath.Join(pidsRoot, fmt.Sprintf("octet-%d-%d", os.Getpid(), pidsSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", &Unavailable{Missing: "a pids cgroup for the process budget, which RLIMIT_NPROC does not enforce for root (" + err.Error() + ")"}
	}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.FormatInt(limit, 10)), 0); err != nil {
		_ = os.Remove(dir)
		return "", &Unavailable{Missing: "a pids cgroup limit (" + err.Error() + ")"}
	}
	return dir, nil
}

// removePidsCgroup removes a start's cgroup once its init has ended. The kernel empties a
// PID namespace before its init's parent sees the exit, so the cgroup is empty by then; a
// task still being torn down makes rmdir return EBUSY for a moment, hence the few tries.
func removePidsCgroup(dir string) {
	if dir == "" {
		return
	}
	for i := 0; i < 50; i++ {
		if err := os.Remove(dir); err == nil || os.IsNotExist(err) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// findPidsRoot finds where this process sits in the pids hierarchy: a cgroup v1 mount with
// the pids controller, or the unified (v2) hierarchy where pids is enabled for children.
func findPidsRoot() (string, error) {
	own := map[string]string{} // controller list → path, from /proc/self/cgroup
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if f := strings.SplitN(l, ":", 3); len(f) == 3 {
				own[f[1]] = f[2]
			}
		}
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	var v2 string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// id parent dev root mountpoint options [optional...] - fstype source superoptions
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, tail := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(tail) < 3 {
			continue
		}
		mnt, root := fields[4], fields[3]
		switch tail[0] {
		case "cgroup":
			if !hasOption(tail[2], "pids") {
				continue
			}
			for ctrls, path := range own {
				if hasOption(ctrls, "pids") {
					return joinCgroup(mnt, root, path), nil
				}
			}
		case "cgroup2":
			v2 = joinCgroup(mnt, root, own[""])
		}
	}
	if v2 != "" {
		if b, err := os.ReadFile(filepath.Join(v2, "cgroup.subtree_control")); err == nil && hasOption(strings.ReplaceAll(strings.TrimSpace(string(b)), " ", ","), "pids") {
			return v2, nil
		}
		return "", fmt.Errorf("the pids controller is not enabled for %s's children", v2)
	}
	return "", fmt.Errorf("no pids cgroup hierarchy is mounted")
}

func hasOption(list, want string) bool {
	for _, o := range strings.Split(list, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// joinCgroup maps a cgroup path onto the mount that shows the hierarchy from root.
func joinCgroup(mnt, root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = "."
	}
	return filepath.Join(mnt, rel)
}
