// Package process starts an extension's entrypoint the way the wire contract requires and
// owns its operating-system side: the sanitised environment, the process group, the
// bounded stderr log, and ending the process and every descendant at shutdown (family.go),
// at the host's death (spawn_linux.go) and after a crashed host (registry.go).
//
// It knows nothing about JSON-RPC: it hands out the protocol pipes and reports the exit.
package process

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/octet-kit/octet/host/sandbox"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Spec says what to start and with which identity.
type Spec struct {
	Name         string   // manifest name (OCTET_EXTENSION_NAME)
	Dir          string   // extension directory (OCTET_EXTENSION_DIR)
	ManifestPath string   // OCTET_EXTENSION_MANIFEST
	Command      string   // entrypoint.command as written in the manifest
	Args         []string // entrypoint.args, passed without a shell
	Workspace    string   // the child's working directory (OCTET_WORKSPACE)
	APIVersion   string   // OCTET_EXTENSION_API_VERSION
	ScratchDir   string   // per-generation directory (OCTET_EXTENSION_SCRATCH); created by Start
	StateDir     string   // durable per-extension directory (OCTET_EXTENSION_STATE); created by the caller
	LogPath      string   // bounded stderr log; empty discards stderr (tail still kept)
	PassEnv      []string // host variables granted by name (--pass-env, config pass_env)
	SSHAuthSock  bool     // the manifest declares capabilities.environment = ["SSH_AUTH_SOCK"]

	// LookupEnv and Environ read the host environment; nil means the real one (tests inject).
	LookupEnv func(string) (string, bool)
	Environ   func() []string
	// LogLimit overrides protocol.StderrLogMaxBytes (tests use a small bound).
	LogLimit int64
	// StderrFilter, when set, makes the filter this process's stderr passes through before
	// it is logged or kept in the tail (the host's secret redaction).
	StderrFilter func() Filter
	// Sandbox, when set, confines the process (host/sandbox): Start fills in the places it
	// knows (directory, entrypoint, workspace, scratch, PATH). Nil runs it unconfined.
	Sandbox *sandbox.Request
}

// Filter rewrites a byte stream that arrives in pieces. Push returns what can be released
// now (it may hold back a few bytes that could start a match, and may alias its argument);
// Flush releases the rest at EOF. redact.Stream is one.
type Filter interface {
	Push(piece []byte) []byte
	Flush() []byte
}

// Process is one running extension process (one generation).
type Process struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	log    *stderrLog
	done   chan struct{}

	mu    sync.Mutex
	state *os.ProcessState
	err   error
	inner *syscall.WaitStatus // the entrypoint's own status, as the sandbox init reported it

	launch *sandbox.Launch // the sandbox init's report pipe; nil when unconfined
	policy *sandbox.Policy

	leader Ident  // the extension process itself, by pid and start time
	marker string // OCTET_EXTENSION_SCRATCH=…, inherited by descendants (family.go)
	famMu  sync.Mutex
	family map[Ident]bool // descendants seen by a scan
}

// Start resolves the command and starts it in its own process group with the sanitised
// environment, the workspace as working directory, and the protocol on stdin/stdout.
func Start(spec Spec) (*Process, error) {
	lookup := spec.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	hostPath, _ := lookup("PATH")
	exe, err := Resolve(spec.Dir, spec.Command, hostPath)
	if err != nil {
		return nil, err
	}
	if spec.ScratchDir != "" {
		if err := os.MkdirAll(spec.ScratchDir, 0o700); err != nil {
			return nil, &StartError{Kind: KindSpawn, Message: fmt.Sprintf("cannot create scratch directory %s: %v", spec.ScratchDir, err)}
		}
	}
	limit := spec.LogLimit
	if limit <= 0 {
		limit = protocol.StderrLogMaxBytes
	}
	log, err := openLog(spec.LogPath, limit)
	if err != nil {
		return nil, &StartError{Kind: KindSpawn, Message: fmt.Sprintf("cannot open stderr log %s: %v", spec.LogPath, err)}
	}
	if spec.StderrFilter != nil {
		log.filter = spec.StderrFilter()
	}
	// Our own pipes (not cmd.StdoutPipe) so Wait never closes the protocol reader under the
	// JSON-RPC connection, and a grandchild holding stdout cannot delay exit detection.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, &StartError{Kind: KindSpawn, Message: err.Error()}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, &StartError{Kind: KindSpawn, Message: err.Error()}
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, &StartError{Kind: KindSpawn, Message: err.Error()}
	}
	cmd := exec.Command(exe, spec.Args...)
	cmd.Dir = spec.Workspace
	cmd.Env = Environment(&spec)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	launch, policy, err := confine(cmd, &spec, exe, hostPath)
	if err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, err
	}
	startMu.Lock()
	err = startCmd(cmd)
	if err == nil {
		addLeader(cmd.Process.Pid)
	}
	startMu.Unlock()
	if launch != nil {
		launch.Started()
		if err == nil {
			if aerr := launch.Admit(cmd.Process.Pid); aerr != nil {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				removeLeader(cmd.Process.Pid)
				closeAll(inR, inW, outR, outW, errR, errW)
				launch.Close()
				return nil, sandboxError(spec.Name, exe, aerr, nil)
			}
		}
	}
	if err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		if launch != nil {
			launch.Close()
			return nil, &StartError{Kind: KindSandbox, Message: fmt.Sprintf("%s: cannot create the sandbox's namespaces: %v", spec.Name, err)}
		}
		kind := KindSpawn
		if errors.Is(err, os.ErrPermission) {
			kind = KindNotExecutable
		}
		return nil, &StartError{Kind: kind, Message: fmt.Sprintf("cannot start %s: %v", exe, err)}
	}
	closeAll(inR, outW, errW) // the child holds its ends now
	p := &Process{cmd: cmd, stdin: inW, stdout: outR, log: log, done: make(chan struct{}),
		leader: identOf(cmd.Process.Pid), family: map[Ident]bool{}, launch: launch, policy: policy}
	if spec.ScratchDir != "" {
		p.marker = "OCTET_EXTENSION_SCRATCH=" + spec.ScratchDir
	}
	go log.drain(errR)
	go p.wait(errR)
	if launch != nil {
		if err := launch.Ready(); err != nil {
			p.Stop(0)
			return nil, sandboxError(spec.Name, exe, err, p.StderrTail())
		}
	}
	return p, nil
}

func (p *Process) wait(errR *os.File) {
	err := p.cmd.Wait()
	removeLeader(p.cmd.Process.Pid)
	var inner *syscall.WaitStatus
	if p.launch != nil {
		if ws, ok := p.launch.Status(); ok {
			inner = &ws
		}
	}
	p.mu.Lock()
	p.state, p.err, p.inner = p.cmd.ProcessState, err, inner
	p.mu.Unlock()
	// A grandchild may still hold stderr open; give the drain a moment to finish the
	// leader's last lines, then stop reading so the tail is stable.
	select {
	case <-p.log.done:
	case <-time.After(100 * time.Millisecond):
	}
	_ = errR.Close()
	close(p.done)
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// Stdin is the host→extension protocol stream.
func (p *Process) Stdin() io.WriteCloser { return p.stdin }

// Stdout is the extension→host protocol stream.
func (p *Process) Stdout() io.ReadCloser { return p.stdout }

// Pid is the process id, which is also its process group id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Ident is the process's pid and start time.
func (p *Process) Ident() Ident { return p.leader }

// Done is closed once the process has exited and been reaped.
func (p *Process) Done() <-chan struct{} { return p.done }

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// ExitDescription says how the process ended ("exited with code 3", "killed by signal
// terminated"), or "running".
func (p *Process) ExitDescription() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state == nil {
		return "running"
	}
	ws, ok := p.state.Sys().(syscall.WaitStatus)
	if p.inner != nil {
		ws, ok = *p.inner, true
	}
	if ok && ws.Signaled() {
		return "killed by signal " + ws.Signal().String()
	}
	if ok {
		return fmt.Sprintf("exited with code %d", ws.ExitStatus())
	}
	return fmt.Sprintf("exited with code %d", p.state.ExitCode())
}

// ExitCode is the exit code, -1 if killed by a signal or still running.
func (p *Process) ExitCode() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state == nil {
		return -1
	}
	if p.inner != nil {
		if p.inner.Signaled() {
			return -1
		}
		return p.inner.ExitStatus()
	}
	return p.state.ExitCode()
}

// StderrTail returns the last lines the process wrote to stderr.
func (p *Process) StderrTail() []string { return p.log.Tail() }

// Signal sends sig to the whole process group (the extension and anything it spawned).
func (p *Process) Signal(sig syscall.Signal) error {
	err := syscall.Kill(-p.cmd.Process.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil // the group is already gone
	}
	return err
}

// CloseStdin closes the host's end of stdin: the SDKs treat EOF as a request to exit.
func (p *Process) CloseStdin() error { return p.stdin.Close() }

// Stop ends the process and its family within grace: SIGTERM to the group and to every
// descendant outside it, then SIGKILL if the leader has not exited. KillFamily follows
// even after the leader exits, so no descendant survives. It returns once the leader is
// reaped and the family is gone.
func (p *Process) Stop(grace time.Duration) {
	if tracking && p.launch == nil {
		signalIdents(p.descendants(currentTable()), syscall.SIGTERM)
	}
	_ = p.Signal(syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.done:
	case <-t.C:
	}
	_ = p.Signal(syscall.SIGKILL)
	<-p.done
	p.KillFamily()
	_ = p.stdout.Close()
}
