package conformance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ErrTransport marks a call that failed because of the connection (the process
// exited, stdout closed, a frame could not be written), never because of an answer.
var ErrTransport = errors.New("transport")

// Session is one extension process driven frame by frame. It writes requests and
// notifications, matches responses to requests by id, records every protocol
// violation it sees on stdout (non-JSON lines, oversized frames, duplicate or
// unknown response ids) and answers the extension's requests with Services.
type Session struct {
	ext       *Extension
	proc      *process.Process
	stdin     io.WriteCloser
	logPath   string
	start     time.Time
	frames    frameLog
	services  *Services
	closeOnce sync.Once

	wmu sync.Mutex // one writer: whole lines only

	mu            sync.Mutex
	nextID        int64
	pending       map[int64]chan Response
	answered      map[int64]bool
	violations    []string
	notifications []Notification
	readerErr     error
	nullIDErrors  int

	readerDone chan struct{}
	scratchDir string // the check's temporary root (scratch, state, stderr log)
	scratch    string // OCTET_EXTENSION_SCRATCH

	faults *faultTaps // the fault-injecting transport, when StartOptions.Faults asked for it
}

// Notification is a notification the extension sent.
type Notification struct {
	Method string
	Params json.RawMessage
}

// StartOptions change how a session starts the process.
type StartOptions struct {
	// APIVersion is exported as OCTET_EXTENSION_API_VERSION (default: the manifest's).
	APIVersion string
	// Secrets is the broker's contents for this session (name → value).
	Secrets map[string]string
	// Faults, when set, carries the session's stdio through the fault-injecting
	// transport (host/faultx; see session_faults.go).
	Faults *Faults
	// Unconfined starts the extension outside the sandbox (Options.NoSandbox).
	Unconfined bool
	// StateDir, when set, holds the session's KV store instead of a fresh directory, so a
	// check can restart the extension on the data an earlier session wrote.
	StateDir string
	// Grant adds declarations to the manifest's capabilities, as an operator would.
	Grant *Grant
}

// startSession starts the extension's entrypoint through the host's process
// package: sanitised environment (wire.md §9), own process group, bounded stderr log.
func startSession(ext *Extension, opts StartOptions, scratch string, passEnv []string) (*Session, error) {
	m := ext.Manifest
	api := opts.APIVersion
	if api == "" {
		api = m.APIVersion
	}
	s := &Session{ext: ext, scratch: filepath.Join(scratch, "scratch")}
	stateDir := stateDirFor(scratch)
	if opts.StateDir != "" {
		stateDir = opts.StateDir
	}
	svc, err := newServices(s, ext, opts.Secrets, stateDir)
	if err != nil {
		return nil, err
	}
	p, err := process.Start(process.Spec{
		Name:         m.Name,
		Dir:          ext.Dir,
		ManifestPath: m.Path,
		Command:      m.Entrypoint.Command,
		Args:         m.Entrypoint.Args,
		Workspace:    ext.Workspace,
		APIVersion:   api,
		ScratchDir:   filepath.Join(scratch, "scratch"),
		LogPath:      filepath.Join(scratch, "stderr.log"),
		PassEnv:      passEnv,
		SSHAuthSock:  slices.Contains(m.Capabilities.Environment, "SSH_AUTH_SOCK"),
		Sandbox:      sandboxFor(opts, m),
	})
	if err != nil {
		svc.close()
		return nil, fmt.Errorf("start %s: %w", m.Entrypoint.Command, err)
	}
	s.proc, s.stdin, s.services = p, p.Stdin(), svc
	s.logPath = filepath.Join(scratch, "stderr.log")
	s.pending, s.answered = map[int64]chan Response{}, map[int64]bool{}
	s.readerDone, s.start = make(chan struct{}), time.Now()
	stdout := s.withFaults(opts.Faults, p.Stdout())
	go s.read(stdout)
	return s, nil
}

// read is the only reader of the extension's stdout. It never blocks on a check:
// responses go to buffered channels, requests are served on their own goroutines.
func (s *Session) read(r io.ReadCloser) {
	defer close(s.readerDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, size, err := readLine(br, MaxMessageBytes)
		if size > MaxMessageBytes {
			s.violation("extension wrote a frame of %d bytes, over the %d-byte limit: %s", size, MaxMessageBytes, excerpt(line, 80))
		} else if len(line) > 0 {
			s.frames.add(Frame{At: time.Since(s.start), Text: excerpt(line, 400)})
			s.dispatch(line)
		}
		if err != nil {
			s.mu.Lock()
			s.readerErr = err
			pending := s.pending
			s.pending = map[int64]chan Response{}
			s.mu.Unlock()
			for _, ch := range pending {
				close(ch)
			}
			return
		}
	}
}

// readLine returns the next line without its newline, reading at most limit bytes
// of it; size is the line's full length (over limit when it was cut).
func readLine(br *bufio.Reader, limit int) ([]byte, int, error) {
	var line []byte
	size := 0
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if len(line) <= limit {
			line = append(line, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := len(chunk); n > 0 && chunk[n-1] == '\n' {
			size--
		}
		return trimNewline(line), size, err
	}
}

func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
	}
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	return b
}

// dispatch classifies one line: response, request or notification; anything else
// is a violation (stray output corrupting the stream).
func (s *Session) dispatch(line []byte) {
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil || env.JSONRPC != "2.0" {
		s.violation("stdout carried a line that is not a JSON-RPC 2.0 object: %s", excerpt(line, 120))
		return
	}
	switch {
	case env.Method != "" && len(env.ID) > 0:
		go s.serve(env)
	case env.Method != "":
		s.mu.Lock()
		s.notifications = append(s.notifications, Notification{Method: env.Method, Params: env.Params})
		s.mu.Unlock()
		s.services.notify(env.Method, env.Params)
	case len(env.ID) > 0:
		s.deliver(env, line)
	default:
		s.violation("frame is neither request, notification nor response: %s", excerpt(line, 120))
	}
}

func (s *Session) deliver(env envelope, line []byte) {
	if string(env.ID) == "null" && env.Error != nil {
		// JSON-RPC's answer to a frame whose id could not be read: the extension
		// reporting the protocol error it is closing on. Allowed, not a response.
		s.mu.Lock()
		s.nullIDErrors++
		s.mu.Unlock()
		return
	}
	id, err := strconv.ParseInt(string(env.ID), 10, 64)
	if err != nil {
		s.violation("response id %s is not one of the host's integer ids: %s", env.ID, excerpt(line, 120))
		return
	}
	if (env.Result == nil) == (env.Error == nil) {
		s.violation("response %d must carry exactly one of result and error: %s", id, excerpt(line, 120))
	}
	s.mu.Lock()
	ch, ok := s.pending[id]
	delete(s.pending, id)
	dup := s.answered[id]
	s.answered[id] = true
	s.mu.Unlock()
	switch {
	case ok:
		s.services.parentSettled(id)
		ch <- Response{Result: env.Result, Error: env.Error}
	case dup:
		s.violation("a second response for request %d: %s", id, excerpt(line, 120))
	default:
		s.violation("response for request %d, which the host never sent: %s", id, excerpt(line, 120))
	}
}

// serve answers one extension request with the reverse services.
func (s *Session) serve(env envelope) {
	result, rpcErr := s.services.handle(env.ID, env.Method, env.Params)
	frame := map[string]any{"jsonrpc": "2.0", "id": env.ID}
	if rpcErr != nil {
		frame["error"] = rpcErr
	} else {
		frame["result"] = result
	}
	b, err := json.Marshal(frame)
	if err == nil {
		_ = s.WriteLine(b)
	}
}

func (s *Session) violation(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.violations) < 20 {
		s.violations = append(s.violations, fmt.Sprintf(format, args...))
	}
}

// Violations returns the protocol violations seen on stdout so far.
func (s *Session) Violations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.violations...)
}

// NullIDErrors counts error frames with id null (answers to unreadable frames).
func (s *Session) NullIDErrors() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nullIDErrors
}

// Notifications returns the notifications with the given method received so far,
// in arrival order.
func (s *Session) Notifications(method string) []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Notification
	for _, n := range s.notifications {
		if n.Method == method {
			out = append(out, n)
		}
	}
	return out
}

// WriteLine writes one frame (a newline is appended) to the extension's stdin.
func (s *Session) WriteLine(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.frames.add(Frame{ToExtension: true, At: time.Since(s.start), Text: excerpt(b, 400)})
	if _, err := s.stdin.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("%w: write to the extension's stdin: %v", ErrTransport, err)
	}
	return nil
}

// Send writes a request and returns its id and the channel its response arrives on.
// The channel is closed without a value when the connection ends first.
func (s *Session) Send(method string, params any) (int64, <-chan Response, error) {
	return s.SendFrame(func(id int64) ([]byte, error) {
		return json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	})
}

// SendFrame writes the request frame build makes for a fresh id, verbatim: for envelopes
// no Go value marshals to (a repeated key). Its answer is awaited like Send's.
func (s *Session) SendFrame(build func(id int64) ([]byte, error)) (int64, <-chan Response, error) {
	ch := make(chan Response, 1)
	s.mu.Lock()
	if s.readerErr != nil {
		s.mu.Unlock()
		return 0, nil, fmt.Errorf("%w: the extension's stdout is closed (%v)", ErrTransport, s.readerErr)
	}
	s.nextID++
	id := s.nextID
	s.pending[id] = ch
	s.mu.Unlock()
	b, err := build(id)
	if err != nil {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		return 0, nil, err
	}
	if err := s.WriteLine(b); err != nil {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		return 0, nil, err
	}
	return id, ch, nil
}

// SendText is Send with params written as the given JSON text, verbatim: for frames that
// no Go value marshals to (duplicate keys, 1.0 for an integer, escapes).
func (s *Session) SendText(method, params string) (int64, <-chan Response, error) {
	return s.Send(method, json.RawMessage(params))
}

// Notify writes a notification.
func (s *Session) Notify(method string, params any) error {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	if err != nil {
		return err
	}
	return s.WriteLine(b)
}

// Cancel sends $/cancelRequest for id.
func (s *Session) Cancel(id int64) error {
	return s.Notify(protocol.MethodCancelRequest, map[string]any{"id": id})
}

// Wait waits for the response on ch, the end of the connection or ctx.
func (s *Session) Wait(ctx context.Context, id int64, ch <-chan Response) (Response, error) {
	select {
	case r, ok := <-ch:
		if !ok {
			return Response{}, fmt.Errorf("%w: connection ended before request %d was answered%s", ErrTransport, id, s.exitSummary())
		}
		return r, nil
	case <-ctx.Done():
		return Response{}, fmt.Errorf("no answer to request %d: %w", id, ctx.Err())
	}
}

// Call sends a request and waits for its response within timeout.
func (s *Session) Call(ctx context.Context, timeout time.Duration, method string, params any) (Response, error) {
	id, ch, err := s.Send(method, params)
	if err != nil {
		return Response{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return s.Wait(ctx, id, ch)
}

// CloseStdin closes the extension's stdin (it sees EOF).
// It does not wait for a write in progress (a check may leave one blocked on a
// reader that stopped); closing the pipe ends that write.
func (s *Session) CloseStdin() error {
	return s.stdin.Close()
}

// Exited is closed when the process has exited.
func (s *Session) Exited() <-chan struct{} { return s.proc.Done() }

// ExitCode returns the exit code (-1 when killed by a signal or still running).
func (s *Session) ExitCode() int { return s.proc.ExitCode() }

// WaitExit waits up to d for the process to exit and reports whether it did.
func (s *Session) WaitExit(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.proc.Done():
		return true
	case <-t.C:
		return false
	}
}

// Kill ends the whole process group: SIGTERM, then SIGKILL after grace.
func (s *Session) Kill(grace time.Duration) { s.proc.Stop(grace) }

// close releases the session: stdin closed, the process group ended. A check that
// restarts the extension closes the earlier session itself; the runner's close after
// the check then does nothing.
func (s *Session) close() { s.closeOnce.Do(s.release) }

func (s *Session) release() {
	_ = s.CloseStdin()
	if !s.WaitExit(2 * time.Second) {
		s.Kill(time.Second)
	}
	// Children that inherited stdout may keep it open; end the group regardless.
	s.proc.Stop(0)
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	select {
	case <-s.readerDone:
	case <-t.C:
	}
	s.services.close()
}

// StderrTail returns the last lines the extension wrote to stderr.
func (s *Session) StderrTail() []string { return s.proc.StderrTail() }

// StderrContains reports whether the extension's stderr log contains text.
func (s *Session) StderrContains(text string) bool {
	b, err := os.ReadFile(s.logPath)
	return err == nil && strings.Contains(string(b), text)
}

// Frames returns the frames kept for the failure report.
func (s *Session) Frames() []string { return s.frames.lines() }

func (s *Session) exitSummary() string {
	if s.WaitExit(200 * time.Millisecond) {
		return " (process " + s.proc.ExitDescription() + ")"
	}
	return ""
}
