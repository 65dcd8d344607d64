package main

import (
	"bufio"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/bench/internal/report"
)

// describeMachine records what the numbers were taken on, including the load at the
// start (other work on a shared machine shows up in every number).
//
// The Python line names the interpreter every Python target and the bare start share
// (pythonInterp): the kit's .venv and the system python3 start with different modules
// (site-packages .pth files, a sitecustomize), which moves the floor's idle RSS by
// several MiB and every Python ratio with it.
func describeMachine(root string) report.Machine {
	m := report.Machine{NProc: runtime.NumCPU(), LoadBefore: loadavg()}
	m.CPU = procField("/proc/cpuinfo", "model name")
	if kb, err := strconv.ParseInt(strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB"), 10, 64); err == nil {
		m.MemoryMiB = kb / 1024
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = "Linux " + strings.TrimSpace(string(b))
	}
	m.Tools = append(m.Tools, runtime.Version())
	py := pythonInterp(root)
	for _, argv := range [][]string{{py, "--version"}, {"node", "--version"}} {
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err == nil {
			m.Tools = append(m.Tools, argv[0]+" "+strings.TrimSpace(string(out)))
		}
	}
	return m
}

// loadavg is /proc/loadavg's first three fields.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return strings.TrimSpace(string(b))
	}
	return strings.Join(f[:3], " ")
}

// procField returns the value of the first "key: value" line in a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
