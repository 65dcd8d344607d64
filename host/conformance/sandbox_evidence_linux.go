package conformance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// The sandbox checks' own evidence, read from the kernel on the host side: whether a path
// was opened or created (inotify: the event is queued by the open itself, so it is there
// when the probe has answered), which processes descend from the session's, and how much
// private memory the entrypoint maps.

// watch reports, once the probe has answered, whether anything opened, read, created or
// wrote path (a file or a directory's entries).
type watch struct{ fd int }

func watchPath(path string) (*watch, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	mask := uint32(unix.IN_OPEN | unix.IN_ACCESS | unix.IN_CREATE | unix.IN_MODIFY | unix.IN_MOVED_TO)
	if _, err := unix.InotifyAddWatch(fd, path, mask); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return &watch{fd: fd}, nil
}

// touched reads the queued events without waiting.
func (w *watch) touched() bool {
	buf := make([]byte, 4096)
	n, err := unix.Read(w.fd, buf)
	return err == nil && n > 0
}

func (w *watch) close() { unix.Close(w.fd) }

// procInfo is one process as /proc/PID/stat shows it.
type procInfo struct {
	pid, ppid int
	comm      string
	start     string // start time in clock ticks: a pid and its start time name one process
}

func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procInfo{}, false
	}
	// comm is parenthesised and may hold spaces or parentheses: split at the last ')'.
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return procInfo{}, false
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return procInfo{}, false // gone, or a zombie: ended
	}
	ppid, _ := strconv.Atoi(f[1])
	return procInfo{pid: pid, ppid: ppid, comm: string(b[open+1 : end]), start: f[19]}, true
}

func allProcs() []procInfo {
	ents, _ := os.ReadDir("/proc")
	var out []procInfo
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			if p, ok := readProc(pid); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// descendants lists the live processes below root.
func descendants(root int) []procInfo {
	children := map[int][]procInfo{}
	for _, p := range allProcs() {
		children[p.ppid] = append(children[p.ppid], p)
	}
	var out []procInfo
	queue := []int{root}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		for _, c := range children[next] {
			out = append(out, c)
			queue = append(queue, c.pid)
		}
	}
	return out
}

// marked lists the live processes whose command line holds token.
func marked(token string) []procInfo {
	var out []procInfo
	for _, p := range allProcs() {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(p.pid), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(token)) {
			out = append(out, p)
		}
	}
	return out
}

// alive reports whether the process p names still runs (same pid, same start time).
func alive(p procInfo) bool {
	now, ok := readProc(p.pid)
	return ok && now.start == p.start
}

// vmDataMiB is the private writable memory pid maps (VmData, what RLIMIT_DATA bounds).
func vmDataMiB(pid int) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmData:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb >> 10, err == nil
		}
	}
	return 0, false
}
