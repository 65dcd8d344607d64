package sandboxinit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// init turns this process into the sandbox init when the host started it as one. It runs
// before main in every binary that links the host (octet-host, tests, the bench), so each
// of them can confine the extensions it starts.
func init() {
	enc, ok := os.LookupEnv(EnvKey)
	if !ok {
		return
	}
	os.Exit(runInit(enc))
}

// forwarded are the signals the init passes on to the entrypoint's group.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGWINCH, syscall.SIGALRM}

// statusFD is the pipe to the host (Wrap's ExtraFiles[0]).
const statusFD = 3

// InitThreads is the headroom the init's own threads need under the process budget.
const InitThreads = 8

func runInit(enc string) int {
	runtime.LockOSThread() // never unlocked: the restrictions below belong to this thread
	runtime.GOMAXPROCS(1)
	status := os.NewFile(statusFD, "sandbox-status")
	unix.CloseOnExec(statusFD)
	say := func(format string, a ...any) { fmt.Fprintf(status, format+"\n", a...) }
	_ = os.Unsetenv(EnvKey)
	p, err := decodePolicy(enc)
	if err != nil || len(os.Args) < 2 {
		say("error bad invocation of the sandbox init: %v", err)
		return 125
	}
	// A signal for the extension reaches the init (the host signals the init's group, or
	// the pid it knows); the init forwards it to the entrypoint's group, the group the
	// extension's own children share, exactly once. Caught before the fork, so none is lost.
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, forwarded...)
	if err := confine(p); err != nil {
		var u *Unavailable
		if errors.As(err, &u) {
			say("unavailable %s", u.Missing)
		} else {
			say("error %v", err)
		}
		return 125
	}
	if p.PidsCgroup != "" && !admitted() {
		say("unavailable the pids cgroup %s (the host did not move the init into it)", p.PidsCgroup)
		return 125
	}
	exe, argv := os.Args[1], append([]string{os.Args[1]}, os.Args[2:]...)
	pid, err := syscall.ForkExec(exe, argv, &syscall.ProcAttr{
		Env: os.Environ(), Files: []uintptr{0, 1, 2},
		Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true},
	})
	if err != nil {
		say("error cannot start %s: %v", exe, err)
		return 126
	}
	go func() {
		for sig := range sigs {
			_ = unix.Kill(-pid, sig.(syscall.Signal))
		}
	}()
	say("ready %d", pid)
	// The protocol pipes belong to the entrypoint: the init holds no end of them, so a
	// stream ends when the entrypoint's side of it does.
	for fd := 0; fd <= 2; fd++ {
		_ = unix.Close(fd)
	}
	return reap(pid, status)
}

// gateFD is the gate the host opens once the init is in its pids cgroup (Wrap's
// ExtraFiles[1], present only with a cgroup).
const gateFD = 4

// admitted waits for the host's byte on the gate: the init is in its pids cgroup.
func admitted() bool {
	b := make([]byte, 1)
	n, _ := unix.Read(gateFD, b)
	_ = unix.Close(gateFD)
	return n == 1 && b[0] == 'g'
}

// reap is PID 1's duty: wait for every process that ends in the namespace, and end with the
// entrypoint. The kernel then kills whatever is left.
func reap(child int, status *os.File) int {
	for {
		var ws unix.WaitStatus
		pid, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 125
		}
		if pid != child {
			continue
		}
		fmt.Fprintf(status, "exit %d\n", uint32(ws))
		if ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ws.ExitStatus()
	}
}

// confine applies the policy to this process (mounts, rlimits) and this thread (Landlock,
// seccomp); the entrypoint started from this thread inherits all of it.
func confine(p *Policy) error {
	// No remount of / as private first: a mount namespace made together with a user namespace
	// gets the host's shared mounts as slaves, so nothing mounted here reaches the host, and
	// the recursive remount took the kernel's namespace lock for up to 15 ms on a busy host.
	// The namespace's own /proc shows only the extension's processes.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return &Unavailable{Missing: "a /proc of its own (" + err.Error() + ")"}
	}
	// Pathname sockets of system daemons live under /run; Landlock before ABI 9 does not
	// govern connect(2) on them, so the namespace sees an empty /run.
	if fi, err := os.Lstat("/run"); err == nil && fi.IsDir() {
		if err := unix.Mount("tmpfs", "/run", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64k,mode=755"); err != nil {
			return &Unavailable{Missing: "an empty /run (" + err.Error() + ")"}
		}
	}
	if err := mountHosts(p); err != nil {
		return err
	}
	if err := setLimits(p); err != nil {
		return err
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return &Unavailable{Missing: "no_new_privs (" + err.Error() + ")"}
	}
	if err := ApplyLandlock(p); err != nil {
		return err
	}
	return loadSeccomp(p.Seccomp)
}

func setLimits(p *Policy) error {
	limits := []struct {
		name     string
		resource int
		value    int64
	}{
		{"memory", unix.RLIMIT_DATA, p.MemoryBytes},
		{"cpu", unix.RLIMIT_CPU, p.CPUSeconds},
		{"open files", unix.RLIMIT_NOFILE, p.OpenFiles},
		{"processes", unix.RLIMIT_NPROC, p.Processes + InitThreads},
	}
	for _, l := range limits {
		if l.value <= 0 || (l.name == "processes" && p.Processes <= 0) {
			continue
		}
		v := uint64(l.value)
		if err := unix.Prlimit(0, l.resource, &unix.Rlimit{Cur: v, Max: v}, nil); err != nil {
			return fmt.Errorf("%s budget %d: %v", l.name, l.value, err)
		}
	}
	return nil
}

// ApplyLandlock restricts this thread (not all threads: AllThreadsSyscall refuses binaries
// built with cgo) in the strict form: a kernel below minLandlockABI fails closed.
func ApplyLandlock(p *Policy) error {
	cfg := landlock.V6
	if p.Filesystem == FilesystemUnrestricted {
		cfg.HandledAccessFS = 0
	}
	var rules []landlock.Rule
	switch {
	case !p.Network:
		// handled, no rule: no TCP bind or connect at all
	case len(p.Connect) > 0:
		cfg.HandledAccessNet = landlock.AccessNetSet(ll.AccessNetConnectTCP)
		for _, port := range p.Connect {
			rules = append(rules, landlock.ConnectTCP(port))
		}
	default:
		cfg.HandledAccessNet = 0
	}
	if cfg.HandledAccessFS != 0 {
		rules = append(rules, pathRules(p.Read, landlock.RODirs, landlock.ROFiles)...)
		rules = append(rules, pathRules(append(p.Write, SystemWrite...), landlock.RWDirs, landlock.RWFiles)...)
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		if strings.Contains(err.Error(), "ABI") || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
			return &Unavailable{Missing: "Landlock: " + err.Error()}
		}
		return fmt.Errorf("landlock: %v", err)
	}
	if fd < 0 {
		return nil
	}
	defer unix.Close(fd)
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return &Unavailable{Missing: "Landlock enforcement (" + err.Error() + ")"}
	}
	return nil
}

// pathRules gives each existing path the directory or the file form of a rule (Landlock
// refuses directory rights on a file); a missing path grants nothing.
func pathRules(paths []string, dirs, files func(...string) landlock.FSRule) []landlock.Rule {
	var ds, fs []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
		case fi.IsDir():
			ds = append(ds, p)
		default:
			fs = append(fs, p)
		}
	}
	var out []landlock.Rule
	if len(ds) > 0 {
		out = append(out, dirs(ds...).IgnoreIfMissing())
	}
	if len(fs) > 0 {
		out = append(out, files(fs...).IgnoreIfMissing())
	}
	return out
}

// SystemWrite is what every runtime writes: the null and zero devices.
var SystemWrite = []string{"/dev/null", "/dev/zero", "/dev/full"}

// loadSeccomp installs the filter the host compiled (struct sock_filter entries) on this
// thread; no_new_privs is set already.
func loadSeccomp(raw []byte) error {
	if len(raw) == 0 || len(raw)%8 != 0 || len(raw)/8 > 4096 {
		return &Unavailable{Missing: fmt.Sprintf("a seccomp filter (the host sent %d bytes)", len(raw))}
	}
	prog := make([]unix.SockFilter, len(raw)/8)
	for i := range prog {
		b := raw[i*8:]
		prog[i] = unix.SockFilter{Code: binary.LittleEndian.Uint16(b), Jt: b[2], Jf: b[3], K: binary.LittleEndian.Uint32(b[4:])}
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if _, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fprog))); errno != 0 {
		return &Unavailable{Missing: "a seccomp filter (" + errno.Error() + ")"}
	}
	return nil
}

// mountHosts puts the resolved allowlist (lines "address name") over /etc/hosts, in the
// init's mount namespace, before Landlock opens its rules.
func mountHosts(p *Policy) error {
	if len(p.Hosts) == 0 {
		return nil
	}
	body := "127.0.0.1 localhost\n::1 localhost ip6-localhost\n" + strings.Join(p.Hosts, "\n") + "\n"
	const file = "/run/octet-hosts" // the init's own empty /run
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		return &Unavailable{Missing: "a hosts file for the allowlist (" + err.Error() + ")"}
	}
	if err := unix.Mount(file, "/etc/hosts", "", unix.MS_BIND, ""); err != nil {
		return &Unavailable{Missing: "a hosts file for the allowlist (" + err.Error() + ")"}
	}
	return nil
}
