package host

import (
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

	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// ownerMethods are the host requests that carry a resource owner and may therefore be the
// parent of reverse requests (wire.md §5, §6).
//
// h-codegen's per-method metadata (owner-bound methods in schema/methods.json) replaces this
// list; until it lands it names the methods by the generated constants.
var ownerMethods = map[string]bool{protocol.MethodToolCall: true, protocol.MethodCommandExecute: true,
	protocol.MethodHookRun: true, protocol.MethodContextCollect: true}

// generation is one process of an extension: started, handshaken, serving, stopped. It
// never restarts; supervision replaces it with a new generation.
type generation struct {
	ext      *Extension
	number   int64
	manifest *manifest.Manifest
	proc     *process.Process
	conn     *jsonrpc.Conn
	caller   *Caller
	neg      *negotiated
	sem      chan struct{}
	scratch  string

	mu       sync.Mutex
	closing  bool                       // admission stopped (shutdown or reload)
	inflight map[*inflightCall]struct{} // host calls in progress
	parents  map[jsonrpc.ID]struct{}    // active owner-carrying host requests
	idle     chan struct{}              // closed when inflight drops to zero while closing
	sessions map[string]bool            // sessions this generation was told are open
	readyAt  time.Time
	// cancelling holds the grace timer of each host request cancelled but not yet answered
	// (cancelgrace.go); terminated is set once the host ended the generation for it.
	cancelling    map[jsonrpc.ID]*time.Timer
	outstanding   map[jsonrpc.ID]struct{} // host requests written and not yet answered
	cancelPending atomic.Int64
	terminated    string

	ready        atomic.Bool   // installed as the current generation: reverse requests are served from now on
	readyCh      chan struct{} // closed once ready, or once the generation will never be (readyOnce)
	readyOnce    sync.Once
	initAnswered atomic.Bool // the extension's first response (to initialize) was read
	issued       atomic.Bool // a request carried owner(): the process may now echo it
	intentional  atomic.Bool // stopping on purpose: the end is not a crash
	ended        chan struct{}
	endReason    string // set before ended closes
}

// inflightCall is one host call in progress; stopping the generation sets shutdown, then
// cancels the call's context, so the call reports why it ended.
type inflightCall struct {
	cancel   context.CancelFunc
	shutdown atomic.Bool
}

// errShutdownCancel says why a call cancelled because its generation stops ended.
var errShutdownCancel = errors.New("cancelled because the extension is shutting down")

// owner is the resource owner this generation's requests carry.
func (g *generation) owner() Owner {
	return Owner{SessionID: g.ext.host.opts.Session.SessionID, ExtensionInstanceID: g.ext.instanceID, ProcessGeneration: g.number}
}

// issuedOwner reports whether the host issued o to this generation: o is the generation's
// owner and a host request has carried it. Nothing else can be an issued owner, so an
// extension cannot borrow another session's or process's identity by naming it.
func (g *generation) issuedOwner(o Owner) bool {
	return g.issued.Load() && o == g.owner()
}

// startGeneration starts a process for m and completes the initialize handshake, or returns
// a *StartError saying precisely why not. The returned generation is ready but not installed.
func startGeneration(ctx context.Context, e *Extension, m *manifest.Manifest, number int64) (*generation, error) {
	h := e.host
	o := &h.opts
	g := &generation{ext: e, number: number, manifest: m, inflight: map[*inflightCall]struct{}{},
		parents: map[jsonrpc.ID]struct{}{}, ended: make(chan struct{}), readyCh: make(chan struct{})}
	// The operator's settings are judged before anything starts: a bad value is the
	// operator's to fix, and the extension never runs with it.
	values, revision := e.settingsValues()
	settings, err := CheckSettings(m, values)
	if err != nil {
		return nil, &StartError{Kind: kindSettings, Message: err.Error()}
	}
	logPath := e.LogPath()
	h.prepareProcesses()
	g.scratch = filepath.Join(h.scratchRoot(), m.Name, fmt.Sprintf("%s-%d", e.instanceID, number))
	stateDir, err := h.durableState(ctx, m)
	if err != nil {
		return nil, err
	}
	g.caller = &Caller{
		Extension: m.Name, Principal: m.Principal(), Identity: m.Identity(), APIVersion: m.APIVersion, InstanceID: e.instanceID, Generation: number,
		Features: map[string]bool{}, Secrets: m.Capabilities.Secrets, Commands: m.Contributes.Commands, UI: m.Contributes.UI,
		Context: m.Contributes.Context, Presentation: m.Contributes.Presentation, Notifications: m.Contributes.Notifications,
		Confirmations: m.Contributes.Confirmations, ScratchDir: g.scratch, ActiveParent: g.activeParent,
		IssuedOwner: g.issuedOwner,
	}
	proc, err := process.Start(process.Spec{
		Name: m.Name, Dir: m.Dir, ManifestPath: m.Path, Command: m.Entrypoint.Command, Args: m.Entrypoint.Args,
		Workspace: o.Workspace, APIVersion: m.APIVersion, ScratchDir: g.scratch, StateDir: stateDir, LogPath: logPath,
		PassEnv: o.PassEnv, SSHAuthSock: contains(m.Capabilities.Environment, "SSH_AUTH_SOCK"), LookupEnv: o.LookupEnv,
		StderrFilter: o.StderrFilter, Sandbox: sandboxRequest(o, m),
	})
	if err != nil {
		return nil, withLog(err, logPath)
	}
	g.proc = proc
	h.recordProcess(proc)
	g.conn = jsonrpc.NewConn(proc.Stdout(), proc.Stdin(), jsonrpc.Options{
		Handler:         g.handle,
		MaxMessageBytes: o.MaxMessageBytes,
		MaxInFlight:     protocol.MaxInFlight,
		Cancellation:    jsonrpc.Cancellation{Method: protocol.MethodCancelRequest},
		OnMessage:       g.onMessage,
		Logf:            func(f string, a ...any) { o.Logf("%s[%d]: "+f, append([]any{m.Name, number}, a...)...) },
		// Notification delivery (docs/host.md): bounded queue, the reader pauses while it
		// is full; paced per process; a response waits behind what was written before it,
		// so a handler's snapshot, progress and notifications are handled while their
		// parent request is still active; drained before the connection closes, and what
		// is dropped is counted and reported.
		MaxQueuedNotifications:     protocol.NotificationQueueFrames,
		MaxQueuedNotificationBytes: protocol.NotificationQueueBytes,
		NotificationRate:           max(o.NotificationRate, 0),
		NotificationBurst:          protocol.NotificationRateBurst,
		OrderedDelivery:            true,
		OnResponse:                 g.responded,
		NotificationDrain:          o.NotificationDrain,
		OnDropped:                  g.dropped,
		OnFrame:                    g.frameTap(),
	})
	if m.APIVersion == "0.1" {
		g.conn.SetCancellation(false) // API 0.1 has no $/cancelRequest
	}
	go g.watch()

	params, offer := buildInitialize(e.entry, m, o)
	hctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()
	var raw json.RawMessage
	err = g.conn.Call(hctx, protocol.MethodInitialize, params, &raw)
	if err == nil {
		g.neg, err = checkInitialize(raw, m, offer)
	} else {
		err = g.classifyStartFailure(hctx, err)
	}
	if err != nil {
		g.kill() // ready stays false: waiting requests and notifications are refused
		return nil, withLog(err, logPath)
	}
	for f := range g.neg.features {
		g.caller.Features[f] = true
	}
	g.sem = make(chan struct{}, g.neg.concurrency)
	if err := g.sendConfigure(hctx, settings, revision, false); err != nil {
		g.kill()
		var refused *ConfigureRefusedError
		if errors.As(err, &refused) {
			err = &StartError{Kind: kindSettings, Message: err.Error()}
		}
		return nil, withLog(err, logPath)
	}
	// Not ready yet: what the extension sends from now on waits in handle() until install
	// makes this the current generation (markReady), so a tools/register written right
	// after the initialize answer finds the catalog seeded and the generation current.
	if err := h.services.SeedCatalog(g.caller, g.neg.tools); err != nil {
		g.kill()
		return nil, &process.StartError{Kind: process.KindRefused, Message: "catalog refused: " + err.Error()}
	}
	return g, nil
}

// withLog names the stderr log in a start failure: the tail it carries is the end of what
// the process wrote, and the person reading it needs to know where the rest is.
func withLog(err error, path string) error {
	var se *process.StartError
	if errors.As(err, &se) && path != "" {
		se.Log = path
	}
	return err
}

// classifyStartFailure turns a failed initialize call into the start failure kinds.
func (g *generation) classifyStartFailure(ctx context.Context, err error) error {
	var we *jsonrpc.Error
	switch {
	case errors.As(err, &we):
		return &process.StartError{Kind: process.KindRefused, Message: fmt.Sprintf("initialize answered with error %d: %s", we.Code, we.Message), Stderr: g.proc.StderrTail()}
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil && !g.proc.Exited():
		return &process.StartError{Kind: process.KindTimeout, Message: fmt.Sprintf("no initialize answer within %s", g.ext.host.opts.StartTimeout), Stderr: g.proc.StderrTail()}
	case errors.Is(err, jsonrpc.ErrTransport) || g.proc.Exited():
		if cerr := g.conn.Err(); cerr != nil && strings.Contains(cerr.Error(), "protocol error") {
			return &process.StartError{Kind: process.KindNonFrame, Message: "wrote a non-frame line to stdout before the handshake (" + cerr.Error() + ")", Stderr: g.proc.StderrTail()}
		}
		select {
		case <-g.proc.Done():
		case <-time.After(exitStatusWait):
		}
		return &process.StartError{Kind: process.KindExited, Message: g.proc.ExitDescription() + " before the handshake", Stderr: g.proc.StderrTail()}
	}
	return &process.StartError{Kind: process.KindSpawn, Message: err.Error(), Stderr: g.proc.StderrTail()}
}

// watch ends the generation when either the process or the connection ends: a process exit
// closes the connection (pending calls fail with a transport error at once); a connection
// failure (protocol error, stdout closed) ends the process group.
func (g *generation) watch() {
	select {
	case <-g.proc.Done():
		g.endReason = g.proc.ExitDescription()
		if why := g.terminatedReason(); why != "" {
			g.endReason = why + " (" + g.endReason + ")"
		}
		_ = g.conn.Close()
	case <-g.conn.Done():
		// Stdout closing usually means the process is exiting; give it a moment so the
		// reason is its exit status. A protocol error is the better reason either way.
		cerr := errString(g.conn.Err())
		select {
		case <-g.proc.Done():
			g.endReason = g.proc.ExitDescription()
		case <-time.After(200 * time.Millisecond):
			g.endReason = "connection closed: " + cerr
		}
		if strings.Contains(cerr, "protocol error") {
			g.endReason = cerr
		}
		if why := g.terminatedReason(); why != "" {
			g.endReason = why + " (" + g.endReason + ")"
		}
		if !g.proc.Exited() {
			g.proc.Stop(g.ext.host.opts.TermGrace)
		}
		_ = g.conn.Close()
	}
	g.disarmCancelGraces()
	// Descendants may outlive the leader, in its group or not; they go with the generation.
	g.proc.KillFamily()
	g.ext.host.forgetProcess(g.proc)
	// Close does not wait for the connection's handlers: an extension request or
	// notification still being served (a diagnostic written to the store, say) would run
	// on after the generation, even the host and its store, were gone. They finish first
	// (their contexts are cancelled; bounded for one that ignores it).
	hctx, hcancel := context.WithTimeout(context.Background(), handlerDrain)
	_ = g.conn.WaitHandlers(hctx)
	hcancel()
	// The services forget the generation and its scratch goes before ended closes, so
	// whoever waits on ended (stop, Shutdown) sees a generation that is entirely gone.
	g.ext.host.services.GenerationEnded(g.caller)
	_ = os.RemoveAll(g.scratch)
	close(g.ended)
	if !g.intentional.Load() {
		g.ext.onCrash(g)
	}
}

func errString(err error) string {
	if err == nil {
		return "closed"
	}
	return err.Error()
}

// markReady ends the wait of the extension's early requests and notifications (handle):
// served when ok (install made g current), refused otherwise. Only the first call counts.
func (g *generation) markReady(ok bool) {
	g.readyOnce.Do(func() {
		g.ready.Store(ok) // before the close: a waiter woken by it sees the verdict
		close(g.readyCh)
	})
}

// kill ends a generation that never became ready (or must go at once).
func (g *generation) kill() {
	g.markReady(false)
	g.intentional.Store(true)
	_ = g.conn.Close()
	g.proc.Stop(g.ext.host.opts.TermGrace)
	<-g.ended
}
