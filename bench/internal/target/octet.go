package target

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ViaDirect says how octet targets are driven until the host library can start
// them: the harness is the host, speaking sdk-go/jsonrpc (the transport the host
// shares) and answering kv.get and artifact/publish itself.
const ViaDirect = "sdk-go/jsonrpc (direct)"

// OctetDirect returns a Start function for an octet extension directory, driven
// directly over sdk-go/jsonrpc. extraEnv is added to the child's environment; the
// sessions' Echo makes call.
func OctetDirect(dir string, extraEnv []string, call Call) func(ctx context.Context) (Session, error) {
	return func(ctx context.Context) (Session, error) {
		ext, err := LoadExtension(dir)
		if err != nil {
			return nil, err
		}
		s, err := startOctet(ctx, ext, extraEnv, call)
		if err != nil {
			return nil, err // never a typed nil inside the interface
		}
		return s, nil
	}
}

type octetSession struct {
	ext     *Extension
	call    Call // what Echo calls
	cmd     *exec.Cmd
	conn    *jsonrpc.Conn
	work    string // workspace + scratch, removed on Close
	scratch string
	exited  chan struct{}
	// slots holds one token per request the extension accepts at once
	// (its negotiated max_concurrent_requests): like the host, the harness
	// queues beyond it instead of provoking overloaded refusals.
	slots chan struct{}

	// frameHook lets CancelLatency watch frames; guarded by mu.
	mu        sync.Mutex
	frameHook func(dir jsonrpc.Direction, frame []byte)
}

func startOctet(ctx context.Context, ext *Extension, extraEnv []string, call Call) (*octetSession, error) {
	work, err := os.MkdirTemp("", "octet-bench-")
	if err != nil {
		return nil, err
	}
	s := &octetSession{ext: ext, call: call, work: work, scratch: filepath.Join(work, "scratch"), exited: make(chan struct{})}
	if err := os.MkdirAll(s.scratch, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.Command(ext.Command, ext.Args...)
	cmd.Dir = work
	cmd.Env = append(BaseEnv(),
		"OCTET_EXTENSION_API_VERSION=0.4",
		"OCTET_EXTENSION_NAME="+ext.Name,
		"OCTET_EXTENSION_DIR="+ext.Dir,
		"OCTET_EXTENSION_MANIFEST="+ext.ManifestPath,
		"OCTET_WORKSPACE="+work,
		"OCTET_EXTENSION_SCRATCH="+s.scratch)
	cmd.Env = append(cmd.Env, extraEnv...)
	cmd.Stderr = io.Discard
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(work)
		return nil, fmt.Errorf("start %s: %w", ext.Command, err)
	}
	s.cmd = cmd
	go func() { _ = cmd.Wait(); close(s.exited) }()
	s.conn = jsonrpc.NewConn(stdout, stdin, jsonrpc.Options{Handler: s.serve, OnFrame: s.onFrame,
		Cancellation: jsonrpc.Cancellation{Method: protocol.MethodCancelRequest}})
	var res json.RawMessage
	if err := s.conn.Call(ctx, "initialize", s.initParams(), &res); err != nil {
		s.Close()
		return nil, fmt.Errorf("initialize %s: %w", ext.Name, err)
	}
	var head struct {
		APIVersion string `json:"api_version"`
		Protocol   struct {
			Limits struct {
				MaxConcurrent int `json:"max_concurrent_requests"`
			} `json:"limits"`
		} `json:"protocol"`
	}
	if err := json.Unmarshal(res, &head); err != nil || head.APIVersion != "0.4" {
		s.Close()
		return nil, fmt.Errorf("initialize %s: api_version %q in %s, want 0.4", ext.Name, head.APIVersion, truncate(res))
	}
	s.slots = make(chan struct{}, min(max(head.Protocol.Limits.MaxConcurrent, 1), 64))
	return s, nil
}

// BaseEnv is the host's baseline environment (docs/design/wire.md §9): what every
// extension the harness starts gets, and what the bare starts run with.
func BaseEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "USER", "LANG", "TZ", "TMPDIR", "TERM"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

func (s *octetSession) initParams() map[string]any {
	return map[string]any{
		"api_version":   "0.4",
		"octet_version": "0.1.0",
		"extension": map[string]any{"name": s.ext.Name, "version": s.ext.Version, "dir": s.ext.Dir,
			"manifest_path": s.ext.ManifestPath, "source": "explicit"},
		"manifest":  s.ext.Manifest,
		"workspace": map[string]any{"root": s.work, "trusted": true},
		"protocol": map[string]any{
			"version":           "0.4",
			"required_features": []string{"request_cancellation", "content_parts"},
			// Only what the harness can serve: kv.get (callback_n) and artifacts.
			"optional_features": []string{"request_progress", "artifacts", "kv"},
			"limits":            map[string]any{"max_concurrent_requests": 64, "max_message_bytes": 1 << 20, "max_pending_requests": 64},
		},
	}
}

func (s *octetSession) onFrame(dir jsonrpc.Direction, frame []byte) {
	s.mu.Lock()
	h := s.frameHook
	s.mu.Unlock()
	if h != nil {
		h(dir, frame)
	}
}

// serve answers the extension's requests the way a host with empty state would.
func (s *octetSession) serve(_ context.Context, req *jsonrpc.Request) (any, error) {
	switch req.Method {
	case "kv.get":
		return map[string]any{"found": false}, nil
	case "artifact/publish":
		return s.publish(req.Params)
	}
	if req.IsNotification() {
		return nil, nil
	}
	return nil, jsonrpc.NewError(-32601, "the benchmark host does not serve "+req.Method, map[string]any{"method": req.Method})
}

// publish verifies an artifact like the host's service does (decode or read, hash,
// compare) without storing it.
func (s *octetSession) publish(params json.RawMessage) (any, error) {
	var p struct {
		Data   *string `json:"data"`
		Path   string  `json:"path"`
		Size   int64   `json:"size"`
		SHA256 string  `json:"sha256"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, jsonrpc.NewError(-32602, "artifact/publish params: "+err.Error(), nil)
	}
	var data []byte
	if p.Data != nil {
		b, err := base64.StdEncoding.DecodeString(*p.Data)
		if err != nil {
			return nil, jsonrpc.NewError(-32602, "artifact/publish data is not base64: "+err.Error(), nil)
		}
		data = b
	} else {
		b, err := os.ReadFile(filepath.Join(s.scratch, filepath.Clean("/"+p.Path)))
		if err != nil {
			return nil, jsonrpc.NewError(-32002, "artifact/publish: "+err.Error(), nil)
		}
		if int64(len(b)) != p.Size {
			return nil, jsonrpc.NewError(-32602, fmt.Sprintf("artifact/publish: file has %d bytes, size says %d", len(b), p.Size), nil)
		}
		data = b
	}
	sum := sha256.Sum256(data)
	hexsum := hex.EncodeToString(sum[:])
	if p.SHA256 != "" && p.SHA256 != hexsum {
		return nil, jsonrpc.NewError(-32602, "artifact/publish: sha256 does not match the bytes", nil)
	}
	return map[string]any{"artifact_id": "bench-" + hexsum[:16], "size": len(data), "sha256": hexsum}, nil
}

func (s *octetSession) tool(ctx context.Context, name string, args any) (json.RawMessage, error) {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-s.slots }()
	var res json.RawMessage
	err := s.conn.Call(ctx, "tool/call", map[string]any{"name": name, "arguments": args}, &res)
	return res, err
}

func (s *octetSession) Echo(ctx context.Context) error {
	res, err := s.tool(ctx, s.call.Tool, s.call.Args)
	if err != nil {
		return err
	}
	return s.call.Check(res)
}

func (s *octetSession) CallbackN(ctx context.Context, n int) error {
	_, err := s.tool(ctx, "callback_n", map[string]any{"n": n})
	return err
}

func (s *octetSession) Publish(ctx context.Context, n int, mode string) error {
	res, err := s.tool(ctx, "publish", map[string]any{"bytes": n, "mode": mode, "mime_type": PublishMIME})
	if err != nil {
		return err
	}
	if !bytes.Contains(res, []byte(`"artifact_id"`)) {
		return fmt.Errorf("publish answered %s without an artifact_id", truncate(res))
	}
	return nil
}

func (s *octetSession) Crash(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := s.tool(ctx, "crash", map[string]any{})
	took := time.Since(start)
	if err == nil {
		return 0, errors.New("crash tool answered instead of exiting")
	}
	if !errors.Is(err, jsonrpc.ErrTransport) {
		return 0, fmt.Errorf("crash was reported as %v, want a transport error", err)
	}
	return took, nil
}

// CancelLatency starts slow{ms: 10000}, waits until the request has been written and
// the handler has had time to start, cancels, and times the -32800 answer.
func (s *octetSession) CancelLatency(ctx context.Context) (time.Duration, error) {
	sent := make(chan struct{}, 1)
	var cancelAt atomic.Int64 // written by the writer goroutine, read here
	answered := make(chan time.Time, 1)
	s.mu.Lock()
	s.frameHook = func(dir jsonrpc.Direction, frame []byte) {
		switch {
		case dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`"slow"`)):
			sent <- struct{}{}
		case dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`$/cancelRequest`)):
			cancelAt.Store(time.Now().UnixNano())
		case dir == jsonrpc.Inbound && bytes.Contains(frame, []byte(`-32800`)):
			answered <- time.Now()
		}
	}
	s.mu.Unlock()
	defer func() { s.mu.Lock(); s.frameHook = nil; s.mu.Unlock() }()
	callCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { _, err := s.tool(callCtx, "slow", map[string]any{"ms": 10000}); done <- err }()
	<-sent
	time.Sleep(20 * time.Millisecond) // let the handler start waiting
	cancel()
	<-done
	select {
	case at := <-answered:
		// The writer stores cancelAt before the cancel frame goes out, and the
		// answer can only follow that frame.
		return at.Sub(time.Unix(0, cancelAt.Load())), nil
	case <-time.After(5 * time.Second):
		return 0, errors.New("no -32800 answer within 5 s of $/cancelRequest")
	}
}

func (s *octetSession) PID() int { return s.cmd.Process.Pid }

// Close asks for shutdown, waits briefly, then kills the process group.
func (s *octetSession) Close() error {
	select {
	case <-s.exited:
	default:
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = s.conn.Call(ctx, "shutdown", map[string]any{"reason": "host_exit", "deadline_ms": 1000}, nil)
		cancel()
		select {
		case <-s.exited:
		case <-time.After(2 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.exited
		}
	}
	_ = s.conn.Close()
	return os.RemoveAll(s.work)
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
