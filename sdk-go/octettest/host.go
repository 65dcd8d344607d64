package octettest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Options describes the host side of a test session.
type Options struct {
	// APIVersion sent in initialize (default "0.4").
	APIVersion string
	// Manifest is the manifest sent in initialize. Name and version default to
	// "test-extension" and "0.1.0"; contributes is copied as given.
	Manifest map[string]any
	// OptionalFeatures offered (nil offers every optional feature the version has).
	OptionalFeatures []string
	// MaxConcurrentRequests offered (default 4).
	MaxConcurrentRequests int
	// SkipInitialize leaves the handshake to the test (Host.Initialize).
	SkipInitialize bool
	// Script answers the reverse services.
	Script Script
	// Timeout bounds each harness call (default 10s) so a broken extension fails
	// the test instead of hanging it.
	Timeout time.Duration
}

// Frame is one recorded protocol frame, seen from the host.
type Frame struct {
	Sent bool            // true: host → extension
	Raw  json.RawMessage // the frame without its newline
}

// Host is a scripted in-memory host connected to one extension.
type Host struct {
	t    testing.TB
	opts Options
	conn *jsonrpc.Conn
	svc  *services

	mu     sync.Mutex
	frames []Frame

	done chan error // the extension's Serve result (loopback) or process exit
	cmd  *exec.Cmd
}

func (o *Options) defaults() {
	if o.APIVersion == "" {
		o.APIVersion = "0.4"
	}
	if o.MaxConcurrentRequests == 0 {
		o.MaxConcurrentRequests = 4
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	if o.Manifest == nil {
		o.Manifest = map[string]any{}
	}
	if _, ok := o.Manifest["name"]; !ok {
		o.Manifest["name"] = "test-extension"
	}
	if _, ok := o.Manifest["version"]; !ok {
		o.Manifest["version"] = "0.1.0"
	}
	if _, ok := o.Manifest["api_version"]; !ok {
		o.Manifest["api_version"] = o.APIVersion
	}
	if _, ok := o.Manifest["entrypoint"]; !ok {
		o.Manifest["entrypoint"] = map[string]any{"command": "run"}
	}
}

// Start serves ext over an in-memory loopback and, unless SkipInitialize, runs
// the handshake. The session ends with the test (shutdown, then close).
func Start(t testing.TB, ext *octet.Extension, opts Options) *Host {
	t.Helper()
	opts.defaults()
	hostR, extW := io.Pipe()
	extR, hostW := io.Pipe()
	h := newHost(t, opts, hostR, hostW)
	go func() {
		err := ext.Serve(context.Background(), extR, extW)
		extW.Close()
		h.done <- err
	}()
	h.begin()
	return h
}

// StartProcess runs cmd as the extension (its stdin/stdout are the protocol; its
// stderr goes to the test's stderr) and, unless SkipInitialize, runs the handshake.
// cmd.Env gets OCTET_EXTENSION_API_VERSION and OCTET_EXTENSION_SCRATCH added.
func StartProcess(t testing.TB, cmd *exec.Cmd, opts Options) *Host {
	t.Helper()
	opts.defaults()
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "OCTET_EXTENSION_API_VERSION="+opts.APIVersion)
	if opts.Script.ScratchDir != "" {
		cmd.Env = append(cmd.Env, "OCTET_EXTENSION_SCRATCH="+opts.Script.ScratchDir)
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	w, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the extension process: %v", err)
	}
	h := newHost(t, opts, r, w)
	h.cmd = cmd
	go func() { h.done <- cmd.Wait() }()
	h.begin()
	return h
}

func newHost(t testing.TB, opts Options, r io.Reader, w io.Writer) *Host {
	h := &Host{t: t, opts: opts, done: make(chan error, 1)}
	h.svc = newServices(&h.opts.Script, h)
	h.conn = jsonrpc.NewConn(r, w, jsonrpc.Options{
		Handler:      h.svc.handle,
		Cancellation: jsonrpc.Cancellation{Method: protocol.MethodCancelRequest},
		OnFrame: func(dir jsonrpc.Direction, frame []byte) {
			h.mu.Lock()
			h.frames = append(h.frames, Frame{Sent: dir == jsonrpc.Outbound, Raw: append(json.RawMessage(nil), frame...)})
			h.mu.Unlock()
		},
	})
	return h
}

func (h *Host) begin() {
	h.t.Cleanup(h.stop)
	if !h.opts.SkipInitialize {
		if _, err := h.Initialize(); err != nil {
			h.t.Fatalf("initialize: %v", err)
		}
	}
}

// stop ends the session: shutdown if the extension is still serving, then close.
func (h *Host) stop() {
	select {
	case <-h.conn.Done():
	default:
		ctx, cancel := context.WithTimeout(context.Background(), h.opts.Timeout)
		_ = h.conn.Call(ctx, protocol.MethodShutdown, map[string]any{"reason": "host_exit"}, nil)
		cancel()
	}
	h.conn.Close()
	select {
	case <-h.done:
	case <-time.After(h.opts.Timeout):
		if h.cmd != nil && h.cmd.Process != nil {
			h.cmd.Process.Kill()
		}
		h.t.Errorf("octettest: the extension did not stop within %v", h.opts.Timeout)
	}
}

// InitializeParams returns the initialize params this host sends.
func (h *Host) InitializeParams() map[string]any {
	p := map[string]any{
		"api_version":   h.opts.APIVersion,
		"octet_version": "0.8.0",
		"extension": map[string]any{
			"name": h.opts.Manifest["name"], "version": h.opts.Manifest["version"],
			"dir": "/ext", "manifest_path": "/ext/extension.toml", "source": "explicit",
		},
		"manifest":  h.opts.Manifest,
		"workspace": map[string]any{"root": "/workspace", "trusted": true},
	}
	if h.opts.APIVersion != "0.1" {
		// The offer of a host where every condition holds (schema negotiation table).
		required, optional := protocol.OfferFeatures(h.opts.APIVersion, h.opts.Manifest, true, func(protocol.HostCondition) bool { return true })
		if h.opts.OptionalFeatures != nil {
			optional = h.opts.OptionalFeatures
		}
		p["protocol"] = map[string]any{
			"version":           h.opts.APIVersion,
			"required_features": required,
			"optional_features": optional,
			"limits":            map[string]any{"max_concurrent_requests": h.opts.MaxConcurrentRequests},
		}
	}
	return p
}

// Initialize runs the handshake and returns the extension's answer.
func (h *Host) Initialize() (map[string]any, error) {
	var res map[string]any
	err := h.Call(context.Background(), protocol.MethodInitialize, h.InitializeParams(), &res)
	if tools, ok := res["tools"].([]any); ok {
		// Revision 0 is the initialize catalog; later mutations answer the whole catalog.
		h.svc.mu.Lock()
		for _, t := range tools {
			if def, ok := t.(map[string]any); ok {
				h.svc.catalog[fmt.Sprint(def["name"])] = true
			}
		}
		h.svc.mu.Unlock()
	}
	return res, err
}

// Call sends a request and waits (bounded by Options.Timeout).
func (h *Host) Call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, h.opts.Timeout)
	defer cancel()
	return h.conn.Call(ctx, method, params, result)
}

// Notify sends a notification (e.g. a lifecycle event).
func (h *Host) Notify(method string, params any) error { return h.conn.Notify(method, params) }

// CallResult is a decoded tool/call result, loosely typed for assertions (Text joins the
// text parts); protocol.ToolResult is the wire type.
type CallResult struct {
	Content []struct {
		Type       string `json:"type"`
		Text       string `json:"text,omitempty"`
		ArtifactID string `json:"artifact_id,omitempty"`
		MIMEType   string `json:"mime_type,omitempty"`
	} `json:"content"`
	IsError           bool           `json:"is_error"`
	StructuredContent map[string]any `json:"structured_content"`
	Metadata          map[string]any `json:"metadata"`
}

// ToolResult is the former name of CallResult.
//
// Deprecated: use CallResult; the name clashed with protocol.ToolResult, the wire type.
type ToolResult = CallResult

// Text joins the result's text parts.
func (r CallResult) Text() string {
	s := ""
	for _, c := range r.Content {
		s += c.Text
	}
	return s
}

// CallTool calls a tool with arguments (API 0.2/0.4 result shape).
func (h *Host) CallTool(ctx context.Context, name string, args any) (CallResult, error) {
	var res CallResult
	if args == nil {
		args = map[string]any{}
	}
	err := h.Call(ctx, protocol.MethodToolCall, map[string]any{"name": name, "arguments": args}, &res)
	return res, err
}

// Conn is the host side of the transport, for raw exchanges.
func (h *Host) Conn() *jsonrpc.Conn { return h.conn }

// Frames returns a copy of every frame so far.
func (h *Host) Frames() []Frame {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Frame(nil), h.frames...)
}

// Received returns the decoded frames the extension sent with the given method.
func (h *Host) Received(method string) []map[string]any {
	var out []map[string]any
	for _, f := range h.Frames() {
		if f.Sent {
			continue
		}
		var m map[string]any
		if json.Unmarshal(f.Raw, &m) == nil && m["method"] == method {
			out = append(out, m)
		}
	}
	return out
}

// Shutdown sends shutdown and waits for the extension to end.
func (h *Host) Shutdown(ctx context.Context) error {
	if err := h.Call(ctx, protocol.MethodShutdown, map[string]any{"reason": "host_exit"}, nil); err != nil {
		return err
	}
	return h.Wait()
}

// Wait waits (bounded) for the extension to end and returns its exit error.
func (h *Host) Wait() error {
	select {
	case err := <-h.done:
		h.done <- err // keep it for stop
		return err
	case <-time.After(h.opts.Timeout):
		return fmt.Errorf("octettest: the extension did not end within %v", h.opts.Timeout)
	}
}

// CloseInput closes the extension's stdin (EOF), as a crashed host would.
func (h *Host) CloseInput() {
	h.conn.Close()
}
