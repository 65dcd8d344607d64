package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/elastic/go-seccomp-bpf"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/octet-kit/octet/host/sandbox/sandboxinit"
)

// minLandlockABI is the Landlock ABI the policy needs: filesystem rights with truncate (3),
// TCP bind/connect (4), device ioctl (5) and the signal and abstract-socket scopes (6).
const minLandlockABI = 6

var (
	probeOnce sync.Once
	probeErr  error
)

// Available reports whether this kernel offers everything the init uses, once per process.
func Available() error {
	probeOnce.Do(func() { probeErr = probe() })
	return probeErr
}

func probe() error {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil {
		return &Unavailable{Missing: fmt.Sprintf("Landlock (ABI %d or later; the kernel has none: %v)", minLandlockABI, err)}
	}
	if abi < minLandlockABI {
		return &Unavailable{Missing: fmt.Sprintf("Landlock ABI %d or later (the kernel offers ABI %d)", minLandlockABI, abi)}
	}
	if !seccomp.Supported() {
		return &Unavailable{Missing: "seccomp filters"}
	}
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil && strings.TrimSpace(string(b)) == "0" {
		return &Unavailable{Missing: "user namespaces (user.max_user_namespaces is 0)"}
	}
	return nil
}

// Launch is one confined start: Wrap rewrote the command to start the init; Ready and
// Status read what the init reports on its pipe.
type Launch struct {
	statusR *os.File
	statusW *os.File
	r       *bufio.Reader
	// readied is closed when Ready has read its line: Status, called from the goroutine that
	// waits for the process, reads the same pipe and must come after it.
	readied     chan struct{}
	readiedOnce sync.Once
	cgroup      string   // the start's pids cgroup, removed when the init has ended
	gateR       *os.File // the init's end of the gate (fd 4), closed here once it started
	gateW       *os.File // the host's end: one byte once the init is in its cgroup
}

// Wrap rewrites cmd, which would run exe with cmd.Args[1:], so that it runs the host's own
// binary as the sandbox init under p, which then starts exe. cmd.SysProcAttr must be set.
func Wrap(cmd *exec.Cmd, p *Policy) (*Launch, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	q := *p
	filter, err := seccompFilter(p)
	if err != nil {
		return nil, err
	}
	q.Seccomp = filter
	var cgroup string
	if needPidsCgroup(p) {
		if cgroup, err = newPidsCgroup(p.Processes + sandboxinit.InitThreads); err != nil {
			return nil, err
		}
		q.PidsCgroup = cgroup
	}
	enc, err := q.Encode()
	if err != nil {
		removePidsCgroup(cgroup)
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		removePidsCgroup(cgroup)
		return nil, err
	}
	args := append([]string{"octet-sandbox-init", cmd.Path}, cmd.Args[1:]...)
	cmd.Path, cmd.Args = initBinary(), args
	cmd.Env = append(cmd.Env, sandboxinit.EnvKey+"="+enc)
	cmd.ExtraFiles = []*os.File{w} // fd 3 in the init
	var gateR, gateW *os.File
	if cgroup != "" {
		// fd 4: the init waits here, before it starts anything, until Admit has moved it
		// into its pids cgroup (pids_linux.go).
		if gateR, gateW, err = os.Pipe(); err != nil {
			r.Close()
			w.Close()
			removePidsCgroup(cgroup)
			return nil, err
		}
		cmd.ExtraFiles = append(cmd.ExtraFiles, gateR)
	}
	flags := uintptr(syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWNS)
	if !p.Network {
		flags |= syscall.CLONE_NEWNET
	}
	sys := cmd.SysProcAttr
	sys.Cloneflags = flags
	// Root of the namespace is the operator, so the init may mount its /proc; nothing else
	// of the host's users exists inside.
	sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
	sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
	sys.GidMappingsEnableSetgroups = false
	return &Launch{statusR: r, statusW: w, r: bufio.NewReaderSize(r, 512), readied: make(chan struct{}), cgroup: cgroup, gateR: gateR, gateW: gateW}, nil
}

// Started closes the host's copy of the init's end of the pipe; call it after cmd.Start,
// whether or not it succeeded.
func (l *Launch) Started() {
	_ = l.statusW.Close()
	if l.gateR != nil {
		_ = l.gateR.Close()
	}
}

// Admit moves the started init (pid) into its pids cgroup, when it has one, and opens its
// gate. The move (a cgroup migration, which waits for an RCU grace period) runs while the
// init's binary is still loading, so it costs the start little; the init starts nothing
// before the gate opens. Call it after a successful cmd.Start.
func (l *Launch) Admit(pid int) error {
	if l.gateW == nil {
		return nil
	}
	defer l.gateW.Close()
	if err := os.WriteFile(filepath.Join(l.cgroup, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
		return &Unavailable{Missing: "moving the init into its pids cgroup " + l.cgroup + " (" + err.Error() + ")"}
	}
	_, err := l.gateW.Write([]byte{'g'})
	return err
}

// Ready waits for the init to confine itself and start the entrypoint. An error says why
// the init could not (an *Unavailable when a mechanism refused).
func (l *Launch) Ready() error {
	defer l.readiedOnce.Do(func() { close(l.readied) })
	line, err := l.r.ReadString('\n')
	line = strings.TrimSuffix(line, "\n")
	switch {
	case strings.HasPrefix(line, "ready "):
		return nil
	case strings.HasPrefix(line, "unavailable "):
		return &Unavailable{Missing: strings.TrimPrefix(line, "unavailable ")}
	case strings.HasPrefix(line, "error "):
		return fmt.Errorf("sandbox init: %s", strings.TrimPrefix(line, "error "))
	}
	return fmt.Errorf("sandbox init ended before starting the entrypoint (%v)", err)
}

// Status returns the entrypoint's wait status as the init reported it when it ended, so
// the host describes the extension's own exit, not the init's. ok is false when the init
// was killed before it could say. It waits for Ready, which reads the pipe first.
func (l *Launch) Status() (ws syscall.WaitStatus, ok bool) {
	<-l.readied
	defer l.statusR.Close()
	defer removePidsCgroup(l.cgroup)
	line, _ := l.r.ReadString('\n')
	text, found := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "exit ")
	if !found {
		return 0, false
	}
	n, err := strconv.ParseUint(text, 10, 32)
	if err != nil {
		return 0, false
	}
	return syscall.WaitStatus(n), true
}

// Close releases the pipe of a start that failed.
func (l *Launch) Close() {
	for _, f := range []*os.File{l.gateR, l.gateW} {
		if f != nil {
			_ = f.Close()
		}
	}
	removePidsCgroup(l.cgroup)
	_ = l.statusR.Close()
	_ = l.statusW.Close()
}
