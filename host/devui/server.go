// Package devui is the web inspector of `octet-host dev`: an HTTP server on 127.0.0.1 that
// serves one embedded page (built from inspector/ by esbuild) and a small JSON API over a
// reference host — extension state, catalog, tool calls, commands, a live event stream of
// frames and service events, confirmations and input answered from the page, and the
// recorded sessions of the state store. See docs/inspector.md for the security model.
package devui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// Replayer plays the recorded session sessionID of st against the extension again and
// returns the difference (see `octet-host replay`): a value the page shows, as a diff
// when it has "groups" of "lines" with "op" and "text" (host/replay's Report), else as
// a tree. A build without replay leaves Config.Replay nil and the page says so.
type Replayer func(ctx context.Context, st *store.Store, sessionID string) (any, error)

// Config configures a Server.
type Config struct {
	// Token is the one-time token; empty makes a random one.
	Token string
	// Replay, when set, backs the replay diff of a recorded session.
	Replay Replayer
	// Keep is how many live entries are kept for reloads (default 20000), and KeepBytes
	// how many bytes of them (default 64 MiB); the oldest go first.
	Keep      int
	KeepBytes int
}

// Server is one inspector. Wire it into the reference host's options before Open, Attach
// the opened host and its session, then Listen and Serve.
type Server struct {
	cfg     Config
	token   string
	hub     *hub
	answers *answers
	addr    string
	ln      net.Listener
	srv     *http.Server
	started time.Time

	mu      sync.Mutex
	rt      *reference.Host
	sess    *reference.Session
	turn    string
	catRev  atomic.Int64
	callSeq atomic.Int64
}

// New makes a Server; nothing listens yet.
func New(cfg Config) *Server {
	if cfg.Keep <= 0 {
		cfg.Keep = 20000
	}
	if cfg.KeepBytes <= 0 {
		cfg.KeepBytes = 64 << 20
	}
	tok := cfg.Token
	if tok == "" {
		var b [16]byte
		_, _ = rand.Read(b[:])
		tok = hex.EncodeToString(b[:])
	}
	s := &Server{cfg: cfg, token: tok, hub: newHub(cfg.Keep, cfg.KeepBytes), started: time.Now()}
	s.answers = newAnswers(s.hub)
	s.catRev.Store(-1)
	return s
}

// Token is the one-time token the URL carries.
func (s *Server) Token() string { return s.token }

// Wire installs the inspector's taps in opts (chaining whatever is already set): every
// frame (redacted) and status change, every service event, and the page as the Asker of
// the confirmations and input the script leaves open. Call it before reference.Open.
func (s *Server) Wire(opts *reference.Options) {
	nextFrame := opts.Host.OnFrame
	opts.Host.OnFrame = func(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
		s.frame(ext, gen, dir, frame)
		if nextFrame != nil {
			nextFrame(ext, gen, dir, frame)
		}
	}
	nextEvent := opts.Host.OnEvent
	opts.Host.OnEvent = func(ev host.Event) {
		s.hub.publish("state", ev.Extension, ev.Generation, map[string]any{"state": ev.State, "message": ev.Message})
		s.checkCatalog()
		if nextEvent != nil {
			nextEvent(ev)
		}
	}
	nextSink := opts.Events
	opts.Events = eventSink{s: s, next: nextSink}
	opts.Asker = s.answers
}

// Attach gives the server the opened host and its session; tool calls from the page are
// turns of sess.
func (s *Server) Attach(rt *reference.Host, sess *reference.Session) {
	s.mu.Lock()
	s.rt, s.sess = rt, sess
	s.mu.Unlock()
	s.checkCatalog()
}

// Listen binds 127.0.0.1:port (0: a free port the OS picks). Only the loopback address
// is ever bound.
func (s *Server) Listen(port int) error {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return err
	}
	s.ln, s.addr = ln, ln.Addr().String()
	return nil
}

// Addr is the bound address (127.0.0.1:PORT).
func (s *Server) Addr() string { return s.addr }

// URL is the page's address with the token, the one thing to open.
func (s *Server) URL() string { return "http://" + s.addr + "/?token=" + s.token }

func (s *Server) port() string {
	_, p, _ := net.SplitHostPort(s.addr)
	return p
}

// Handler is the guarded handler (exposed for tests that serve it themselves after
// Listen).
func (s *Server) Handler() http.Handler { return s.guard(s.routes()) }

// Serve serves until ctx ends, then closes the open event streams and returns.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		return errors.New("devui: Serve before Listen")
	}
	s.srv = &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- s.srv.Serve(s.ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = s.srv.Shutdown(sctx)
		<-errc
		return nil
	case err := <-errc:
		return err
	}
}

func (s *Server) host() (*reference.Host, *reference.Session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rt, s.sess
}

// checkCatalog publishes the all-extensions catalog when its revision moved: after a
// state change (a generation ready or gone) and after each frame the host writes (the
// answer to tools/register is written once the catalog has swapped).
func (s *Server) checkCatalog() {
	rt, _ := s.host()
	if rt == nil {
		return
	}
	cat := rt.Catalog()
	if cat == nil {
		return
	}
	old := s.catRev.Load()
	if cat.Revision == old || !s.catRev.CompareAndSwap(old, cat.Revision) {
		return
	}
	tools := make([]map[string]any, 0, len(cat.Tools))
	for _, t := range cat.Tools {
		tools = append(tools, map[string]any{"extension": t.Extension, "name": t.Tool.Name, "generation": t.Generation, "catalog_revision": t.Revision})
	}
	s.hub.publish("catalog", "", 0, map[string]any{"revision": cat.Revision, "tools": tools})
}

// frame publishes one frame, redacted, with what the log columns need.
func (s *Server) frame(ext string, gen int64, dir jsonrpc.Direction, frame []byte) {
	rt, _ := s.host()
	clean := frame
	if rt != nil {
		clean = rt.Redactor().Frame(frame)
	}
	f := framePayload(dir, clean)
	s.hub.publish("frame", ext, gen, f)
	if dir == jsonrpc.Outbound {
		s.checkCatalog()
	}
}

// maxFrameKept bounds the frame text one log entry keeps; the size column still says the
// whole size.
const maxFrameKept = 64 << 10

func framePayload(dir jsonrpc.Direction, frame []byte) map[string]any {
	d := "host->ext"
	if dir == jsonrpc.Inbound {
		d = "ext->host"
	}
	out := map[string]any{"direction": d, "size": len(frame)}
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Error  json.RawMessage `json:"error"`
	}
	if json.Unmarshal(frame, &env) == nil {
		if env.Method != "" {
			out["method"] = env.Method
		}
		if len(env.ID) > 0 && string(env.ID) != "null" {
			out["id"] = env.ID
		}
		if len(env.Error) > 0 {
			out["error"] = true
		}
	}
	if len(frame) > maxFrameKept {
		out["text"], out["truncated"] = string(frame[:maxFrameKept]), true
	} else if json.Valid(frame) {
		out["json"] = json.RawMessage(append([]byte(nil), frame...))
	} else {
		out["text"] = string(frame)
	}
	return out
}
