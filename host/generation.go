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
)

// ownerMethods are the host requests that carry a resource owner and may therefore be the
// parent of reverse requests (wire.md §5, §6).
var ownerMethods = map[string]bool{"tool/call": true, "command/execute": true, "hook/run": true, "context/collect": true}

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
	parents  map[string]jsonrpc.ID      // active owner-carrying host requests by id text
	idle     chan struct{}              // closed when inflight drops to zero while closing
	sessions map[string]bool            // sessions this generation was told are open
	readyAt  time.Time

	ready       atomic.Bool // the handshake completed; reverse requests are served from now on
	intentional atomic.Bool // stopping on purpose: the end is not a crash
	ended       chan struct{}
	endReason   string // set before ended closes
}

type inflightCall struct{ cancel context.CancelCauseFunc }

// errShutdownCancel is the cause given to calls cancelled because their generation stops.
var errShutdownCancel = errors.New("cancelled because the extension is shutting down")

// owner is the resource owner this generation's requests carry.
func (g *generation) owner() Owner {
	return Owner{SessionID: g.ext.host.opts.Session.SessionID, InstanceID: g.ext.instanceID, Generation: g.number}
}

// startGeneration starts a process for m and completes the initialize handshake, or returns
// a *StartError saying precisely why not. The returned generation is ready but not installed.
func startGeneration(ctx context.Context, e *Extension, m *manifest.Manifest, number int64) (*generation, error) {
	h := e.host
	o := &h.opts
	g := &generation{ext: e, number: number, manifest: m, inflight: map[*inflightCall]struct{}{},
		parents: map[string]jsonrpc.ID{}, ended: make(chan struct{})}
	var logPath string
	if o.StateDir != "" {
		logPath = filepath.Join(o.StateDir, "logs", "extensions", m.Name+".log")
		g.scratch = filepath.Join(o.StateDir, "scratch", m.Name, fmt.Sprintf("%s-%d", e.instanceID, number))
	} else {
		g.scratch = filepath.Join(os.TempDir(), "octet-host-scratch", m.Name, fmt.Sprintf("%s-%d", e.instanceID, number))
	}
	g.caller = &Caller{
		Extension: m.Name, Principal: m.Principal(), APIVersion: m.APIVersion, InstanceID: e.instanceID, Generation: number,
		Features: map[string]bool{}, Secrets: m.Capabilities.Secrets, Commands: m.Contributes.Commands, UI: m.Contributes.UI,
		Context: m.Contributes.Context, Presentation: m.Contributes.Presentation, Notifications: m.Contributes.Notifications,
		Confirmations: m.Contributes.Confirmations, ScratchDir: g.scratch, ActiveParent: g.activeParent,
	}
	proc, err := process.Start(process.Spec{
		Name: m.Name, Dir: m.Dir, ManifestPath: m.Path, Command: m.Entrypoint.Command, Args: m.Entrypoint.Args,
		Workspace: o.Workspace, APIVersion: m.APIVersion, ScratchDir: g.scratch, LogPath: logPath,
		PassEnv: o.PassEnv, SSHAuthSock: contains(m.Capabilities.Environment, "SSH_AUTH_SOCK"), LookupEnv: o.LookupEnv,
	})
	if err != nil {
		return nil, err
	}
	g.proc = proc
	g.conn = jsonrpc.NewConn(proc.Stdout(), proc.Stdin(), jsonrpc.Options{
		Handler:         g.handle,
		MaxMessageBytes: o.MaxMessageBytes,
		MaxInFlight:     MaxInFlight,
		OnFrame:         g.onFrame,
		Logf:            func(f string, a ...any) { o.Logf("%s[%d]: "+f, append([]any{m.Name, number}, a...)...) },
	})
	if m.APIVersion == "0.1" {
		g.conn.SetCancellation(false) // API 0.1 has no $/cancelRequest
	}
	go g.watch()

	params := buildInitialize(e.entry, m, o)
	hctx, cancel := context.WithTimeout(ctx, o.StartTimeout)
	defer cancel()
	var raw json.RawMessage
	err = g.conn.Call(hctx, "initialize", params, &raw)
	if err == nil {
		g.neg, err = checkInitialize(raw, params, m, o.MaxConcurrency)
	} else {
		err = g.classifyStartFailure(hctx, err)
	}
	if err != nil {
		g.kill()
		return nil, err
	}
	for f := range g.neg.features {
		g.caller.Features[f] = true
	}
	g.sem = make(chan struct{}, g.neg.concurrency)
	g.ready.Store(true) // publishes the negotiated features to handle()
	if err := h.services.SeedCatalog(g.caller, g.neg.result.Tools); err != nil {
		g.kill()
		return nil, &process.StartError{Kind: process.KindRefused, Message: "catalog refused: " + err.Error()}
	}
	return g, nil
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
		case <-time.After(2 * time.Second):
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
		if !g.proc.Exited() {
			g.proc.Stop(g.ext.host.opts.TermGrace)
		}
		_ = g.conn.Close()
	}
	// Grandchildren may outlive the leader; the group goes with the generation.
	_ = g.proc.Signal(9)
	close(g.ended)
	g.ext.host.services.GenerationEnded(g.caller)
	_ = os.RemoveAll(g.scratch)
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

// kill ends a generation that never became ready (or must go at once).
func (g *generation) kill() {
	g.intentional.Store(true)
	_ = g.conn.Close()
	g.proc.Stop(g.ext.host.opts.TermGrace)
	<-g.ended
}

// handle serves the extension's requests and notifications through the host's services,
// bound to the identity this generation was started with.
func (g *generation) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if !g.ready.Load() {
		// Nothing is negotiated before initialize is answered, so nothing can be served.
		if req.IsNotification() {
			return nil, nil
		}
		return nil, jsonrpc.NewError(codeServiceUnavailable, req.Method+" before the initialize handshake completed", map[string]string{"reason": "not_initialized"})
	}
	return g.ext.host.services.Handle(ctx, g.caller, req)
}

// onFrame feeds the recorder and tracks which host requests are active parents: an
// outbound owner-carrying request becomes active before the extension can see it; its
// response, or our $/cancelRequest for it, settles it.
func (g *generation) onFrame(dir jsonrpc.Direction, frame []byte) {
	if tap := g.ext.host.opts.OnFrame; tap != nil {
		tap(g.manifest.Name, g.number, dir, frame)
	}
	var f struct {
		ID     *jsonrpc.ID `json:"id"`
		Method *string     `json:"method"`
		Params struct {
			ID *jsonrpc.ID `json:"id"`
		} `json:"params"`
	}
	_ = json.Unmarshal(frame, &f) // partial decode is enough; the transport judges validity
	switch {
	case dir == jsonrpc.Outbound && f.Method != nil && f.ID != nil && ownerMethods[*f.Method]:
		g.mu.Lock()
		g.parents[idKey(*f.ID)] = *f.ID
		g.mu.Unlock()
	case dir == jsonrpc.Outbound && f.Method != nil && *f.Method == "$/cancelRequest" && f.Params.ID != nil:
		g.settle(*f.Params.ID)
	case dir == jsonrpc.Inbound && f.Method == nil && f.ID != nil:
		g.settle(*f.ID)
	}
}

func (g *generation) settle(id jsonrpc.ID) {
	g.mu.Lock()
	_, ok := g.parents[idKey(id)]
	delete(g.parents, idKey(id))
	g.mu.Unlock()
	if ok {
		g.ext.host.services.ParentSettled(g.caller, id)
	}
}

// activeParent answers Caller.ActiveParent for this generation.
func (g *generation) activeParent(id jsonrpc.ID) (Owner, bool) {
	if id.IsString() {
		return Owner{}, false // host ids are integers
	}
	g.mu.Lock()
	_, ok := g.parents[idKey(id)]
	g.mu.Unlock()
	if !ok {
		return Owner{}, false
	}
	return g.owner(), true
}

// request sends one host request, bounded by the request timeout and the negotiated
// concurrency, and turns failures into TimeoutError, TransportError or *jsonrpc.Error.
func (g *generation) request(ctx context.Context, method string, params map[string]any, result any) error {
	g.mu.Lock()
	if g.closing {
		g.mu.Unlock()
		return &UnavailableError{Extension: g.manifest.Name, State: "shutting_down", Reason: "generation " + fmt.Sprint(g.number) + " stopped admitting calls"}
	}
	cctx, cancel := context.WithCancelCause(ctx)
	call := &inflightCall{cancel: cancel}
	g.inflight[call] = struct{}{}
	g.mu.Unlock()
	defer g.finish(call)

	select {
	case g.sem <- struct{}{}:
		defer func() { <-g.sem }()
	case <-cctx.Done():
		return g.ctxError(ctx, cctx, method)
	case <-g.ended:
		return g.transportError()
	}
	if ownerMethods[method] && g.manifest.APIVersion != "0.1" {
		if params == nil {
			params = map[string]any{}
		}
		params["resource_owner"] = g.owner()
	}
	timeout := g.ext.host.opts.RequestTimeout
	tctx, tcancel := context.WithTimeoutCause(cctx, timeout, errTimeout)
	defer tcancel()
	err := g.conn.Call(tctx, method, params, result)
	var we *jsonrpc.Error
	switch {
	case err == nil:
		return nil
	case errors.As(err, &we):
		return err // an answer, even one that raced the timeout, is the outcome
	case errors.Is(err, jsonrpc.ErrTransport):
		return g.transportError()
	case tctx.Err() != nil:
		if context.Cause(tctx) == errTimeout && ctx.Err() == nil && cctx.Err() == nil {
			return &TimeoutError{Extension: g.manifest.Name, Method: method, After: timeout.String()}
		}
		return g.ctxError(ctx, cctx, method)
	}
	return err
}

var errTimeout = errors.New("request timeout")

func (g *generation) ctxError(parent, own context.Context, method string) error {
	if parent.Err() != nil {
		return parent.Err()
	}
	if errors.Is(context.Cause(own), errShutdownCancel) {
		return &UnavailableError{Extension: g.manifest.Name, State: "shutting_down", Reason: method + " " + errShutdownCancel.Error()}
	}
	return own.Err()
}

// transportError describes the dead connection, waiting briefly for the exit status so the
// error says "exited with code 3" rather than only "connection closed".
func (g *generation) transportError() error {
	select {
	case <-g.proc.Done():
	case <-time.After(500 * time.Millisecond):
	}
	reason := g.proc.ExitDescription()
	if cerr := g.conn.Err(); cerr != nil && (reason == "running" || strings.Contains(cerr.Error(), "protocol error")) {
		reason = cerr.Error()
	}
	return &TransportError{Extension: g.manifest.Name, Reason: reason, Stderr: g.proc.StderrTail()}
}

func (g *generation) finish(call *inflightCall) {
	call.cancel(nil)
	g.mu.Lock()
	delete(g.inflight, call)
	if g.closing && len(g.inflight) == 0 && g.idle != nil {
		close(g.idle)
		g.idle = nil
	}
	g.mu.Unlock()
}

// dead reports whether the process or its connection has ended.
func (g *generation) dead() bool {
	select {
	case <-g.conn.Done():
		return true
	case <-g.proc.Done():
		return true
	default:
		return false
	}
}

// pending is the number of host calls in progress.
func (g *generation) pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.inflight)
}

// idKey is an id's JSON form, so the integer 5 and the string "5" never collide.
func idKey(id jsonrpc.ID) string {
	b, err := id.MarshalJSON()
	if err != nil {
		return "?" + id.String()
	}
	return string(b)
}
