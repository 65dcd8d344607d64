package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	octet "github.com/octet-kit/octet/sdk-go"
)

// State is where one MCP server stands.
type State string

const (
	StateStarting   State = "starting"    // spawning and handshaking
	StateReady      State = "ready"       // handshake done, catalog published (or withdrawn: see Detail)
	StateRestarting State = "restarting"  // crashed; waiting out the backoff
	StateRefused    State = "refused"     // failed its first handshake: never retried on its own
	StateParked     State = "parked"      // crashed too often; mcp_connect starts it again
	StateNeedsStart State = "needs_start" // has secrets: waits for mcp_connect
	StateStopped    State = "stopped"     // the bridge is shutting down
)

// Supervision bounds, the host's own for extensions (seed 003): full-jitter backoff from
// 250 ms doubling to 30 s, parked after 8 consecutive failures, the count reset once a
// server stayed ready for 30 s.
const (
	backoffBase  = 250 * time.Millisecond
	backoffCap   = 30 * time.Second
	parkAfter    = 8
	resetAfterUp = 30 * time.Second
)

// HandshakeError is a server refused at start-up, with the class of the failure.
type HandshakeError struct {
	Server string
	Class  string // spawn_failed, unreachable, handshake_timeout, protocol_version, exited_during_handshake, handshake_failed
	Err    error
}

func (e *HandshakeError) Error() string {
	return fmt.Sprintf("MCP server %s refused (%s): %v", e.Server, e.Class, e.Err)
}

func (e *HandshakeError) Unwrap() error { return e.Err }

// classify names why a connection attempt failed.
func classify(ctx context.Context, err error) string {
	var ee *exec.Error
	var pe *os.PathError
	msg := err.Error()
	var xe *exitedError
	switch {
	case errors.As(err, &ee) || (errors.As(err, &pe) && strings.Contains(pe.Op, "exec")):
		return "spawn_failed"
	case errors.Is(err, syscall.EPIPE) || strings.Contains(msg, "broken pipe"):
		return "exited_during_handshake"
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return "handshake_timeout"
	case strings.Contains(msg, "unmarshaling jsonrpc message") || strings.Contains(msg, "invalid message version"):
		return "handshake_failed" // it answered, with something that is not MCP
	case errors.As(err, &xe):
		return "exited_during_handshake" // with its exit status and stderr tail in the message
	case strings.Contains(msg, "unsupported protocol version"):
		return "protocol_version"
	case strings.Contains(msg, "connection refused") || strings.Contains(msg, "no such host"):
		return "unreachable"
	case errors.Is(err, mcp.ErrConnectionClosed) || strings.Contains(msg, "EOF") || strings.Contains(msg, "closed"):
		return "exited_during_handshake"
	}
	return "handshake_failed"
}

// upstream is one supervised MCP server.
type upstream struct {
	b    *Bridge
	name string
	cfg  ServerConfig

	changed  chan struct{} // tools/list_changed, coalesced
	logLimit bucket        // log notifications forwarded to the extension log
	dropped  atomic.Int64  // log notifications dropped over logLimit
	settled  chan struct{} // closed when the current start has settled (ready or not); replaced by start
	once     *sync.Once

	mu       sync.Mutex
	state    State
	class    string // HandshakeError.Class of a refused server
	detail   string // the last problem, human-readable
	restarts int
	session  *mcp.ClientSession
	tools    map[string]string // published octet name -> MCP tool name
	withheld []Withheld        // tools of the last list that could not be published
	defs     []*octet.ToolDef  // the published definitions, for the next whole-catalog replace
	revision int64             // the bridge catalog revision that published them
	inflight []*inflight       // calls under way, oldest first (elicitation routing)
	cancel   context.CancelFunc
	done     chan struct{} // closed when the current supervision loop has returned
}

// inflight is one forwarded call.
type inflight struct {
	ctx context.Context
}

func newUpstream(b *Bridge, name string, cfg ServerConfig) *upstream {
	return &upstream{b: b, name: name, cfg: cfg, changed: make(chan struct{}, 1), settled: make(chan struct{}), once: &sync.Once{}, state: StateStarting}
}

func (u *upstream) settle() {
	u.mu.Lock()
	once, ch := u.once, u.settled
	u.mu.Unlock()
	once.Do(func() { close(ch) })
}

func (u *upstream) set(s State, detail string) { u.setCounting(s, detail, false) }

// setCounting changes the state and, when restarted, counts a restart under the same lock.
func (u *upstream) setCounting(s State, detail string, restarted bool) {
	u.mu.Lock()
	u.state, u.detail = s, detail
	if restarted {
		u.restarts++
	}
	u.mu.Unlock()
	if s != StateStarting && s != StateRestarting {
		u.settle()
	}
	u.b.statusChanged()
}

// start runs the supervision loop in the background, after stopping a previous one
// (mcp_connect restarts); env is the extra environment (secrets) of a stdio server.
func (u *upstream) start(parent context.Context, env []string) {
	u.stop()
	ctx, cancel := context.WithCancel(parent)
	done := make(chan struct{})
	u.mu.Lock()
	u.cancel, u.done = cancel, done
	u.state, u.class, u.detail = StateStarting, "", ""
	u.settled, u.once = make(chan struct{}), &sync.Once{}
	u.mu.Unlock()
	go func() {
		defer close(done)
		u.supervise(ctx, env)
	}()
}

// stop ends the supervision loop and waits until it has closed the server's session and
// withdrawn its tools, so a restart never races the previous run.
func (u *upstream) stop() {
	u.mu.Lock()
	c, done := u.cancel, u.done
	u.mu.Unlock()
	if c != nil {
		c()
		<-done
	}
}

// supervise connects, serves until the session ends, and reconnects with backoff. A
// server that never completed a handshake is refused instead: retrying a command that
// does not speak MCP would only spin.
func (u *upstream) supervise(ctx context.Context, env []string) {
	failures := 0
	everReady := false
	for {
		u.set(StateStarting, "")
		cs, err := u.connect(ctx, env)
		if ctx.Err() != nil {
			if cs != nil {
				cs.Close()
			}
			u.set(StateStopped, "")
			return
		}
		if err != nil {
			if !everReady {
				he := &HandshakeError{Server: u.name, Class: classify(ctx, err), Err: err}
				u.mu.Lock()
				u.class = he.Class
				u.mu.Unlock()
				u.b.log.Error("MCP server refused", "server", u.name, "class", he.Class, "err", err.Error())
				u.set(StateRefused, he.Error())
				return
			}
			failures++
		} else {
			everReady = true
			up := time.Now()
			u.serve(ctx, cs)
			if ctx.Err() != nil {
				u.set(StateStopped, "")
				return
			}
			if time.Since(up) >= resetAfterUp {
				failures = 0
			}
			failures++
		}
		// The restart is counted in the same step that leaves "ready": a waiter for
		// min_restarts must never see the old run's state beside the new count.
		if failures >= parkAfter {
			u.setCounting(StateParked, fmt.Sprintf("crashed %d times in a row; mcp_connect starts it again", failures), true)
			return
		}
		d := backoff(failures)
		u.b.log.Warn("MCP server exited; restarting", "server", u.name, "attempt", failures, "backoff", d.String())
		u.setCounting(StateRestarting, fmt.Sprintf("exited; restart %d in %s", failures, d.Round(time.Millisecond)), true)
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			u.set(StateStopped, "")
			return
		case <-t.C:
		}
	}
}

// backoff is full jitter: uniform in [0, min(cap, base·2^(n-1))].
func backoff(n int) time.Duration {
	ceil := backoffBase << min(n-1, 16)
	if ceil > backoffCap || ceil <= 0 {
		ceil = backoffCap
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

// serve publishes the server's catalog, republishes it on every tools/list_changed and
// returns when the session ends, with the server's tools withdrawn.
func (u *upstream) serve(ctx context.Context, cs *mcp.ClientSession) {
	u.mu.Lock()
	u.session = cs
	u.mu.Unlock()
	done := make(chan struct{})
	go func() { _ = cs.Wait(); close(done) }()
	if init := cs.InitializeResult(); init != nil && init.Capabilities != nil && init.Capabilities.Logging != nil {
		//lint:ignore SA1019 logging is deprecated by the newest MCP revision, still served by many servers
		_ = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"})
	}
	u.refresh(ctx, cs)
	for {
		select {
		case <-ctx.Done():
			cs.Close()
			<-done
			u.b.withdraw(u, "the bridge is stopping")
			return
		case <-done:
			u.mu.Lock()
			u.session = nil
			u.mu.Unlock()
			u.b.withdraw(u, "the server exited")
			return
		case <-u.changed:
			u.refresh(ctx, cs)
		}
	}
}

// refresh lists the tools and publishes them, or withdraws the server's tools when the
// list fails or does not validate (fail closed: never a partial catalog).
func (u *upstream) refresh(ctx context.Context, cs *mcp.ClientSession) {
	select {
	case <-u.b.ready:
	case <-ctx.Done():
		return
	}
	var tools []*mcp.Tool
	var err error
	for t, e := range cs.Tools(ctx, nil) {
		if e != nil {
			err = e
			break
		}
		tools = append(tools, t)
	}
	if err == nil {
		err = u.b.publish(ctx, u, tools)
	}
	if err != nil {
		u.b.log.Error("MCP server catalog withdrawn", "server", u.name, "err", err.Error())
		u.b.withdraw(u, err.Error())
		u.set(StateReady, "catalog withdrawn: "+err.Error())
		return
	}
	u.set(StateReady, "")
}

// connect starts (or dials) the server and completes the MCP handshake within the
// server's handshake timeout.
func (u *upstream) connect(ctx context.Context, env []string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "octet-mcp", Version: Version}, &mcp.ClientOptions{
		ElicitationHandler:          u.elicitation,
		ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { u.notifyChanged() },
		LoggingMessageHandler:       u.logMessage,
		ProgressNotificationHandler: u.b.progress,
		Capabilities:                &mcp.ClientCapabilities{},
	})
	var t mcp.Transport
	if u.cfg.URL != "" {
		t = &mcp.StreamableClientTransport{Endpoint: u.cfg.URL, HTTPClient: &http.Client{}}
	} else {
		cmd := exec.Command(u.cfg.Command, u.cfg.Args...)
		cmd.Dir = u.cfg.Dir
		if cmd.Dir == "" {
			cmd.Dir = os.Getenv("OCTET_WORKSPACE")
		}
		cmd.Env = serverEnv(u.cfg.Env, env)
		tail := &tailBuffer{max: 1024}
		cmd.Stderr = io.MultiWriter(&prefixWriter{prefix: "[" + u.name + "] ", w: os.Stderr}, tail)
		st := &stdioTransport{cmd: cmd, terminate: 2 * time.Second, tail: tail}
		if u.cfg.Sandbox != nil {
			var err error
			if st.policy, err = u.cfg.Sandbox.policy(u.name, cmd); err != nil {
				return nil, err
			}
		}
		t = st
	}
	hctx, cancel := context.WithTimeout(ctx, u.cfg.handshake)
	defer cancel()
	cs, err := client.Connect(hctx, t, &mcp.ClientSessionOptions{ProtocolVersion: u.cfg.ProtocolVersion})
	if st, ok := t.(*stdioTransport); ok && err != nil {
		// The session was closed (the process waited for): say how the server ended and
		// what it last wrote, not only what writing to it did ("broken pipe").
		if how := st.exited(); how != "" {
			err = &exitedError{how: how, err: err}
		}
	}
	return cs, err
}

// exitedError is a handshake failure of a server process that has ended.
type exitedError struct {
	how string // "exit status 3; stderr ends: ..."
	err error
}

func (e *exitedError) Error() string { return fmt.Sprintf("%v (the server ended: %s)", e.err, e.how) }
func (e *exitedError) Unwrap() error { return e.err }

func (u *upstream) notifyChanged() {
	select {
	case u.changed <- struct{}{}:
	default: // a refresh is already due; it will list the newest tools
	}
}

// serverEnv is the bridge's environment without the OCTET_* identity variables (they
// describe the bridge, not the server), plus the configured and secret variables.
func serverEnv(cfg map[string]string, extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OCTET_") {
			env = append(env, kv)
		}
	}
	for k, v := range cfg {
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

func (u *upstream) addInflight(c *inflight) {
	u.mu.Lock()
	u.inflight = append(u.inflight, c)
	u.mu.Unlock()
}

func (u *upstream) removeInflight(c *inflight) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for i, x := range u.inflight {
		if x == c {
			u.inflight = append(u.inflight[:i], u.inflight[i+1:]...)
			return
		}
	}
}

// latestInflight is the newest call under way, the one a server-initiated elicitation
// is taken to belong to (stdio MCP does not say which request it serves).
func (u *upstream) latestInflight() *inflight {
	u.mu.Lock()
	defer u.mu.Unlock()
	if n := len(u.inflight); n > 0 {
		return u.inflight[n-1]
	}
	return nil
}

// prefixWriter prefixes each write (a server's stderr line) with the server's name
// before it reaches the bridge's stderr log.
type prefixWriter struct {
	mu     sync.Mutex
	prefix string
	w      interface{ Write([]byte) (int, error) }
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, err := p.w.Write(append([]byte(p.prefix), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}
