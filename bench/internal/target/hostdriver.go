package target

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// ViaHost says how octet targets are driven when the reference host library is
// used: host/reference, the core with the real services router, as octet-host runs them.
const ViaHost = "host library"

// sharedStore is the state every benchmark host shares: one SQLite store, opened once
// per run so that a session's start measures the extension and the host, not opening a
// database.
var sharedStore struct {
	once sync.Once
	dir  string
	st   *store.Store
	err  error
}

func sharedState(ctx context.Context) (string, *store.Store, error) {
	sharedStore.once.Do(func() {
		dir, err := os.MkdirTemp("", "octet-bench-host-")
		if err != nil {
			sharedStore.err = err
			return
		}
		sharedStore.dir = dir
		if sharedStore.st, err = store.Open(ctx, filepath.Join(dir, "state")); err != nil {
			sharedStore.err = fmt.Errorf("host store: %w", err)
		}
	})
	return sharedStore.dir, sharedStore.st, sharedStore.err
}

// InitHostServices opens the shared store now, so that no timed start pays for it.
func InitHostServices(ctx context.Context) error {
	_, _, err := sharedState(ctx)
	return err
}

// CloseHostServices closes the shared store and removes the hosts' state.
func CloseHostServices() {
	if sharedStore.st != nil {
		sharedStore.st.Close()
	}
	if sharedStore.dir != "" {
		os.RemoveAll(sharedStore.dir)
	}
}

// HostGroup is one reference host with a set of extensions started at once.
type HostGroup struct {
	h    *reference.Host
	dir  string
	exts []*host.Extension

	frameHook atomic.Pointer[func(ext string, dir jsonrpc.Direction, frame []byte)]
}

// StartHost starts a reference host over the extension directories (each required;
// names must differ) and waits until all are initialised. env is extra environment
// granted to every extension (through the host's pass-env mechanism).
func StartHost(ctx context.Context, dirs []string, env []string) (*HostGroup, error) {
	base, st, err := sharedState(ctx)
	if err != nil {
		return nil, err
	}
	state, err := os.MkdirTemp(base, "host-")
	if err != nil {
		return nil, err
	}
	g := &HostGroup{dir: state}
	extra := map[string]string{}
	var pass []string
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		extra[k] = v
		pass = append(pass, k)
	}
	ws := filepath.Join(state, "workspace")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		g.Close()
		return nil, err
	}
	g.h, err = reference.Open(ctx, reference.Options{
		Store: st,
		Host: host.Options{
			StateDir: state, Workspace: ws, WorkspaceTrusted: true, PassEnv: pass,
			// octet-host always runs inside a session; without one the host sends an
			// owner with an empty session id, which the SDKs refuse.
			Session:    host.Session{SessionID: "bench-session"},
			Unconfined: unconfined,
			LookupEnv: func(k string) (string, bool) {
				if v, ok := extra[k]; ok {
					return v, true
				}
				return os.LookupEnv(k)
			},
			OnFrame: func(ext string, _ int64, dir jsonrpc.Direction, frame []byte) {
				if h := g.frameHook.Load(); h != nil {
					(*h)(ext, dir, frame)
				}
			},
		},
	})
	if err != nil {
		g.Close()
		return nil, fmt.Errorf("host: %w", err)
	}
	if g.exts, err = g.h.StartDirs(ctx, dirs...); err != nil {
		g.Close()
		return nil, fmt.Errorf("host start: %w", err)
	}
	return g, nil
}

// Session returns a Session for the i-th extension of the group whose Echo makes call.
func (g *HostGroup) Session(i int, call Call) Session {
	return &hostSession{g: g, ext: g.exts[i], call: call, owner: i == 0}
}

// Len is the number of extensions.
func (g *HostGroup) Len() int { return len(g.exts) }

// Close shuts the host down (bounded) and removes its state.
func (g *HostGroup) Close() error {
	var err error
	if g.h != nil {
		err = g.h.Close()
	}
	return errors.Join(err, os.RemoveAll(g.dir))
}

// HostStart returns a Start function that runs one extension directory in its own host;
// the sessions' Echo makes call.
func HostStart(dir string, env []string, call Call) func(ctx context.Context) (Session, error) {
	return func(ctx context.Context) (Session, error) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, err
		}
		g, err := StartHost(ctx, []string{abs}, env)
		if err != nil {
			return nil, err
		}
		return g.Session(0, call), nil
	}
}

type hostSession struct {
	g     *HostGroup
	ext   *host.Extension
	call  Call // what Echo calls
	owner bool // closing this session closes the host
}

func (s *hostSession) Echo(ctx context.Context) error {
	res, err := s.ext.CallTool(ctx, s.call.Tool, s.call.Args)
	if err != nil {
		return err
	}
	return s.call.Check(res)
}

func (s *hostSession) CallbackN(ctx context.Context, n int) error {
	_, err := s.ext.CallTool(ctx, "callback_n", json.RawMessage(fmt.Sprintf(`{"n":%d}`, n)))
	return err
}

func (s *hostSession) Publish(ctx context.Context, n int, mode string) error {
	res, err := s.ext.CallTool(ctx, "publish", json.RawMessage(fmt.Sprintf(`{"bytes":%d,"mode":%q,"mime_type":%q}`, n, mode, PublishMIME)))
	if err != nil {
		return err
	}
	if !bytes.Contains(res, []byte(`"artifact_id"`)) {
		return fmt.Errorf("publish answered %s without an artifact_id", truncate(res))
	}
	return nil
}

func (s *hostSession) Crash(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	_, err := s.ext.CallTool(ctx, "crash", json.RawMessage(`{}`))
	took := time.Since(start)
	if err == nil {
		return 0, errors.New("crash tool answered instead of exiting")
	}
	if !errors.Is(err, jsonrpc.ErrTransport) {
		return 0, fmt.Errorf("crash was reported as %v, want a transport error", err)
	}
	return took, nil
}

// CancelLatency: as for the direct driver, watched through the host's frame tap.
func (s *hostSession) CancelLatency(ctx context.Context) (time.Duration, error) {
	var once sync.Once
	sent := make(chan struct{})
	var cancelAt atomic.Int64
	answered := make(chan time.Time, 1)
	hook := func(_ string, dir jsonrpc.Direction, frame []byte) {
		switch {
		case dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`"slow"`)):
			once.Do(func() { close(sent) })
		case dir == jsonrpc.Outbound && bytes.Contains(frame, []byte(`$/cancelRequest`)):
			cancelAt.Store(time.Now().UnixNano())
		case dir == jsonrpc.Inbound && bytes.Contains(frame, []byte(`-32800`)):
			select {
			case answered <- time.Now():
			default:
			}
		}
	}
	s.g.frameHook.Store(&hook)
	defer s.g.frameHook.Store(nil)
	callCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := s.ext.CallTool(callCtx, "slow", json.RawMessage(`{"ms":10000}`))
		done <- err
	}()
	<-sent
	time.Sleep(20 * time.Millisecond) // let the handler start waiting
	cancel()
	<-done
	select {
	case at := <-answered:
		return at.Sub(time.Unix(0, cancelAt.Load())), nil
	case <-time.After(5 * time.Second):
		return 0, errors.New("no -32800 answer within 5 s of $/cancelRequest")
	}
}

func (s *hostSession) PID() int {
	return s.ext.Status().PID
}

func (s *hostSession) Close() error {
	if s.owner {
		return s.g.Close()
	}
	return nil
}

// HostGroupStart returns a StartGroup function: n hosts in this process, one
// extension each, started at once, sharing one store. One host
// cannot hold n copies of the same extension: its tool catalog is global and refuses
// a second provider of the same tool name.
func HostGroupStart(dir string, env []string, call Call) func(ctx context.Context, n int) ([]Session, func(), error) {
	return func(ctx context.Context, n int) ([]Session, func(), error) {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, nil, err
		}
		groups := make([]*HostGroup, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range groups {
			wg.Add(1)
			go func() {
				defer wg.Done()
				groups[i], errs[i] = StartHost(ctx, []string{abs}, env)
			}()
		}
		wg.Wait()
		closeAll := func() {
			var cw sync.WaitGroup
			for _, g := range groups {
				if g != nil {
					cw.Add(1)
					go func() { defer cw.Done(); g.Close() }()
				}
			}
			cw.Wait()
		}
		ss := make([]Session, n)
		for i, g := range groups {
			if errs[i] != nil {
				closeAll()
				return nil, nil, fmt.Errorf("extension %d of %d: %w", i+1, n, errs[i])
			}
			ss[i] = &hostSession{g: g, ext: g.exts[0], call: call}
		}
		return ss, closeAll, nil
	}
}
