// Command rawfixture implements the conformance fixture (docs/design/fixture.md) on
// the raw wire, with no SDK, so the conformance suite can be tested on its own.
//
// With no argument it follows every rule and must pass every check. With one
// argument it breaks exactly one rule (see the modes below); the suite's tests run
// the check for that rule against it and expect a failure, which proves the check
// can fail.
package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// Modes, one rule broken each.
const (
	modeGood               = ""
	modeHandshakeEcho      = "handshake-wrong-version" // answers api_version "0.2" whatever was offered
	modeAccept03           = "accept-0.3"              // answers initialize for API 0.3
	modeVersionHang        = "version-hang"            // never answers a version other than the manifest's
	modeLieTools           = "lie-tools"               // claims the manifest's tools instead of its own
	modeUnknownCode        = "unknown-method-wrong-code"
	modeNoParamCheck       = "no-param-validation"
	modeEchoTired          = "echo-tired"  // fails echoes after 1,000
	modeEchoSwap           = "echo-swap"   // answers an echo with a concurrent echo's value
	modeNoOverload         = "no-overload" // queues without bound instead of answering -32001
	modeErrorRewrite       = "error-rewrite"
	modeNoCancel           = "no-cancel"
	modeDoubleAnswer       = "double-answer" // answers a late cancel of a finished request
	modeProgressZero       = "progress-zero"
	modeCallbackShort      = "callback-short"
	modeBigResultWritten   = "big-result-written"
	modeOversizeHang       = "oversize-hang"
	modeStdoutGarbage      = "stdout-garbage"
	modeCrashAnswers       = "crash-answers"
	modeIgnoreEOF          = "ignore-eof"
	modeShutdownNoAck      = "shutdown-no-ack"
	modeStuckShutdown      = "stuck-shutdown" // does not bound on_shutdown
	modeCatalogNoPin       = "catalog-no-pin"
	modeArtifactIgnore     = "artifact-ignore-error"
	modeAskWrongParent     = "ask-wrong-parent"
	modeSecretRewrite      = "secret-error-rewrite"
	modePresentNoLimit     = "present-no-limit"
	modeSpawnBadPolicy     = "spawn-bad-policy"
	modeKVRewrite          = "kv-error-rewrite"
	modeBadShape           = "contribution-bad-shape"  // status/collect priority is a string
	modeBadCommand         = "bad-command"             // fixture_cmd joins with commas
	modeLifecycleAnswers   = "lifecycle-answers"       // answers notifications with an error
	modeNoAdmissionStop    = "no-admission-stop"       // keeps serving new requests during shutdown
	modeLenientParams      = "lenient-params"          // serves tool/call params it should refuse
	modeAcceptRequired     = "accept-unknown-required" // answers initialize despite an unknown required feature
	modeUnknownInternal    = "unknown-tool-internal"   // answers an unknown tool with -32603
	modeEOFNoDrain         = "eof-no-drain"            // exits on stdin EOF without waiting for in-flight calls
	modeShutdownErrorAck   = "shutdown-error-ack"      // reports the abandoned on_shutdown as a failed shutdown
	modeNotifyNoTitle      = "notify-no-title"         // drops a notification's title
	modeContributeWrong    = "contribute-wrong-placement"
	modePolicyNoRedeem     = "policy-no-redeem"    // never presents an ask's approval token
	modeKVListNoCursor     = "kv-list-no-cursor"   // drops the cursor, so every page is the first
	modeAgentRewrite       = "agent-error-rewrite" // turns the host's agent/* errors into -32603
	modeNoCancelOther      = "no-cancel-other"     // cancellation reaches tool handlers only
	modeUncaughtWrongCode  = "uncaught-wrong-code" // an uncaught failure outside tools answers -32602
	modeLenientJSON        = "lenient-json"        // takes repeated keys and lone surrogates as encoding/json does
	modeIntegralRefused    = "integral-refused"    // typed refuses an integer argument written 1.0, as the wire rule once did
	modeUnboundedNesting   = "unbounded-nesting"   // serves requests nested past MAX_JSON_DEPTH
	modeTrustHostResults   = "trust-host-results"  // acts on a policy/evaluate result without checking its shape
	modeNegotiationLenient = "negotiation-lenient" // negotiates from a hand list: approvals without policy_intents, 0.2 against a 0.4 pin
	modeHonourCancel       = "honour-cancel"       // ignore_cancel answers -32800 on $/cancelRequest after all
	modeKVSecretSwallowed  = "kv-secret-swallowed" // answers a kv_secret_refused commit as if it applied
	modeAskUnstable        = "ask-unstable"        // a confirmation's words change from one process to the next (its pid)
	modeOptionsDropped     = "options-dropped"     // ask sends input requests without their options
)

var mode string

var tools = []string{"echo", "fail_with", "slow", "ignore_cancel", "progress_n", "print_stdout", "crash", "callback_n",
	"big_result", "publish", "register_dynamic", "unregister_dynamic", "ask", "secret",
	"present", "spawn_child", "kv_commit", "kv_get", "arm_stuck_shutdown", "typed",
	"notify", "contribute", "policy", "kv_list", "agent_op", "suite_args",
	"settings_in_force", "idempotency_key_seen", "sandbox_probe", "replace_dynamic"}

func main() {
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	out := os.Stdout
	if mode != modeStdoutGarbage {
		// Keep the protocol on a private duplicate of fd 1 and point fd 1 at stderr.
		fd, err := syscall.Dup(1)
		if err != nil {
			fatal("dup stdout: %v", err)
		}
		if err := syscall.Dup3(2, 1, 0); err != nil {
			fatal("redirect stdout: %v", err)
		}
		out = os.NewFile(uintptr(fd), "protocol")
	}
	var w io.Writer = out
	if mode == modeUnboundedQueue {
		w = newQueuedOut(out)
	}
	c := &conn{out: w, calls: map[string]chan reply{}, running: map[string]context.CancelFunc{},
		finished: map[string]bool{}, catalogs: map[int]map[string]string{0: {}}}
	c.serve(bufio.NewReaderSize(stdinReader(), 64<<10))
}

// hang blocks forever without Go's deadlock detector ending the process.
func hang() {
	for {
		time.Sleep(time.Hour)
	}
}

func fatal(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "rawfixture: "+format+"\n", args...)
	os.Exit(1)
}

type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

type reply struct {
	Result json.RawMessage
	Error  *rpcError
}

type frame struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *rpcError       `json:"error,omitempty"`
}

type conn struct {
	out io.Writer
	wmu sync.Mutex

	mu        sync.Mutex
	calls     map[string]chan reply // outgoing calls by id
	nextID    int
	running   map[string]context.CancelFunc
	finished  map[string]bool
	admitted  int
	limit     int // concurrency
	pending   int // admission queue
	workers   chan struct{}
	draining  bool
	armed     bool
	catalogs  map[int]map[string]string // revision → dynamic tool → text
	revision  int
	echoes    int
	echoValue map[string]json.RawMessage // in-flight echo values (echo-swap)
	handlers  sync.WaitGroup
}

func (c *conn) write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fatal("encode: %v", err)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if _, err := c.out.Write(append(b, '\n')); err != nil {
		fatal("write: %v", err)
	}
}

func (c *conn) respond(id json.RawMessage, result any, e *rpcError) {
	f := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		f["error"] = e
	} else {
		f["result"] = result
	}
	c.write(f)
}

func (c *conn) notify(method string, params any) {
	c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// call makes an extension-to-host request and waits for its answer.
func (c *conn) call(ctx context.Context, method string, params any) (json.RawMessage, *rpcError) {
	c.mu.Lock()
	c.nextID++
	id := fmt.Sprintf("raw:%d", c.nextID)
	ch := make(chan reply, 1)
	c.calls[fmt.Sprintf("%q", id)] = ch // keyed by the id's JSON text, as responses carry it
	c.mu.Unlock()
	c.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	select {
	case r := <-ch:
		return r.Result, r.Error
	case <-ctx.Done():
		return nil, &rpcError{Code: -32800, Message: "request cancelled"}
	}
}

func (c *conn) serve(r *bufio.Reader) {
	for {
		line, err := readLine(r)
		if err != nil {
			if err == errTooLong {
				if mode == modeOversizeHang {
					hang()
				}
				fatal("protocol error: frame over 1048576 bytes")
			}
			var partial errPartial
			if errors.As(err, &partial) {
				if mode != modePartialServed {
					fatal("protocol error: stdin ended inside a frame: %.64s", partial.first)
				}
				var f frame
				if json.Unmarshal(partial.first, &f) == nil && f.ID != nil {
					c.request(f)
				}
			}
			if mode == modeIgnoreEOF {
				hang()
			}
			if mode != modeEOFNoDrain {
				c.drain(5 * time.Second)
			}
			os.Exit(0)
		}
		if len(line) == 0 {
			if mode == modeBlankSkipped {
				continue
			}
			fatal("protocol error: a blank line is not JSON")
		}
		if mode != modeUnboundedNesting {
			if at := nestingAt(line); at >= 0 {
				if m := leadingID.FindSubmatch(line); m != nil {
					reason := fmt.Sprintf("nesting deeper than %d levels (MAX_JSON_DEPTH) at byte %d", strictjson.MaxDepth, at)
					c.respond(json.RawMessage(m[1]), nil, &rpcError{Code: -32602, Message: "invalid params: " + reason})
				}
				continue
			}
		}
		line = framingMode(line)
		var f frame
		if err := json.Unmarshal(line, &f); err != nil {
			if mode == modeGarbageSkipped {
				continue
			}
			fatal("protocol error: invalid JSON: %.64s", line)
		}
		if mode != modeLenientJSON && f.Method != "" && f.ID != nil && repeatsTopLevelKey(line) {
			c.respond(f.ID, nil, &rpcError{Code: -32600, Message: "invalid request: a key is repeated in the envelope"})
			continue
		}
		switch {
		case f.Method == "" && f.ID != nil:
			c.mu.Lock()
			ch := c.calls[string(f.ID)]
			delete(c.calls, string(f.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- reply{f.Result, f.Error}
			}
		case f.Method == "$/cancelRequest":
			c.cancel(f.Params)
		case f.ID == nil:
			if mode == modeLifecycleAnswers {
				c.respond(json.RawMessage("null"), nil, &rpcError{Code: -32600, Message: "no id"})
			}
		default:
			c.request(f)
		}
	}
}

// repeatsTopLevelKey reports whether the frame's outermost object names a key twice.
func repeatsTopLevelKey(line []byte) bool {
	dec := json.NewDecoder(strings.NewReader(string(line)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		if seen[key] {
			return true
		}
		seen[key] = true
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

var errTooLong = fmt.Errorf("line too long")

func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > 1<<20+1 {
			return nil, errTooLong
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(line) > 0 {
			return nil, errPartial{first: line}
		}
		if err != nil {
			return nil, err
		}
		return line[:len(line)-1], nil
	}
}

// errPartial is input that ended inside a line.
type errPartial struct{ first []byte }

func (e errPartial) Error() string { return "stdin ended inside a frame" }

func (c *conn) cancel(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(params, &p)
	if mode == modeNoCancel {
		return
	}
	c.mu.Lock()
	cancel := c.running[string(p.ID)]
	finished := c.finished[string(p.ID)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if finished && mode == modeDoubleAnswer || (cancel != nil || finished) && mode == modeCancelTwice {
		c.respond(p.ID, nil, &rpcError{Code: -32800, Message: "request cancelled"})
	}
}

func (c *conn) drain(d time.Duration) {
	done := make(chan struct{})
	go func() { c.handlers.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

func (c *conn) request(f frame) {
	switch f.Method {
	case "initialize":
		c.initialize(f)
		return
	case "shutdown":
		go c.shutdown(f)
		return
	case "configure":
		c.configure(f)
		return
	}
	c.mu.Lock()
	if c.draining && mode != modeNoAdmissionStop {
		c.mu.Unlock()
		c.respond(f.ID, nil, &rpcError{Code: -32003, Message: "shutting down"})
		return
	}
	if c.admitted >= c.limit+c.pending && mode != modeNoOverload {
		c.mu.Unlock()
		c.respond(f.ID, nil, &rpcError{Code: -32001, Message: "overloaded", Data: json.RawMessage(fmt.Sprintf(`{"limit":%d}`, c.limit))})
		return
	}
	c.admitted++
	ctx, cancel := context.WithCancel(context.Background())
	c.running[string(f.ID)] = cancel
	c.mu.Unlock()
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		c.workers <- struct{}{}
		var result any
		var e *rpcError
		answer, answered := answerFirst(f)
		switch {
		case ctx.Err() != nil:
			e = &rpcError{Code: -32800, Message: "request cancelled"}
		case answered:
			c.respond(f.ID, answer, nil)
			_, _ = c.handle(ctx, f)
		default:
			result, e = c.handle(ctx, f)
		}
		<-c.workers
		c.mu.Lock()
		delete(c.running, string(f.ID))
		c.finished[string(f.ID)] = true
		c.admitted--
		c.mu.Unlock()
		cancel()
		if !answered || e != nil {
			c.respond(f.ID, result, e)
		}
	}()
}

func (c *conn) initialize(f frame) {
	var p struct {
		APIVersion string         `json:"api_version"`
		Manifest   map[string]any `json:"manifest"`
		Protocol   struct {
			Required []string `json:"required_features"`
			Optional []string `json:"optional_features"`
			Limits   struct {
				Conc    int `json:"max_concurrent_requests"`
				Pending int `json:"max_pending_requests"`
			} `json:"limits"`
		} `json:"protocol"`
	}
	if err := json.Unmarshal(f.Params, &p); err != nil {
		c.respond(f.ID, nil, &rpcError{Code: -32602, Message: err.Error()})
		return
	}
	manifestAPI, _ := p.Manifest["api_version"].(string)
	declareKV(p.Manifest)
	if mode == modeVersionHang && p.APIVersion != manifestAPI {
		return
	}
	// Good: version selection and features by the schema's negotiation table, as every SDK.
	lenient := mode == modeAcceptRequired || mode == modeNegotiationLenient || mode == modeAccept03
	refuse := func(r *protocol.Refusal) {
		data, _ := json.Marshal(r.Data)
		c.respond(f.ID, nil, &rpcError{Code: r.Code, Message: r.Message, Data: data})
	}
	features := []string{}
	if !lenient {
		if r := protocol.SelectVersion(p.APIVersion, os.Getenv("OCTET_EXTENSION_API_VERSION"), manifestAPI); r != nil {
			refuse(r)
			return
		}
		var r *protocol.Refusal
		lifecycle := func(kind string) bool { return kind == "lifecycle" } // it observes lifecycle events
		if features, r = protocol.AcceptFeatures(p.APIVersion, p.Protocol.Required, p.Protocol.Optional, lifecycle, p.Manifest); r != nil {
			refuse(r)
			return
		}
	} else {
		// The lenient negotiation a hand-written list gives: any of its features, no needs,
		// no version check beyond the two it knows.
		if p.APIVersion != "0.2" && p.APIVersion != "0.4" && mode != modeAccept03 {
			c.respond(f.ID, nil, &rpcError{Code: -32006, Message: "unsupported api version " + p.APIVersion,
				Data: json.RawMessage(fmt.Sprintf(`{"requested":%q,"supported":["0.2","0.4"]}`, p.APIVersion))})
			return
		}
		supported := []string{"request_cancellation", "content_parts", "request_progress", "artifacts",
			"dynamic_tools", "agent_sessions", "secrets", "kv", "lifecycle_events", "policy_intents", "approvals"}
		for _, x := range p.Protocol.Required {
			if !slices.Contains(supported, x) && mode != modeAcceptRequired {
				c.respond(f.ID, nil, invalidParams("required feature %q is not supported", x))
				return
			}
		}
		for _, x := range append(p.Protocol.Required, p.Protocol.Optional...) {
			if slices.Contains(supported, x) && !slices.Contains(features, x) {
				features = append(features, x)
			}
		}
	}
	c.limit = min(max(p.Protocol.Limits.Conc, 1), 64)
	c.pending = 64
	if p.Protocol.Limits.Pending > 0 {
		c.pending = p.Protocol.Limits.Pending
	}
	c.workers = make(chan struct{}, c.limit)
	names := tools
	if mode == modeLieTools {
		contributes, _ := p.Manifest["contributes"].(map[string]any)
		names = nil
		for _, t := range contributes["tools"].([]any) {
			names = append(names, t.(string))
		}
	}
	var defs []any
	for _, n := range names {
		d := map[string]any{"name": n, "description": "fixture tool " + n, "parameters": map[string]any{"type": "object"}}
		if n == "suite_args" {
			d["parameters"] = suiteArgsSchema
		}
		if n == "typed" {
			d["parameters"] = typedSchema
			d["output_schema"] = map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}}}
		}
		defs = append(defs, d)
	}
	api := p.APIVersion
	if mode == modeHandshakeEcho {
		api = "0.2"
	}
	c.respond(f.ID, map[string]any{
		"api_version": api, "name": os.Getenv("OCTET_EXTENSION_NAME"), "version": "0.1.0",
		"tools": defs, "commands": []any{map[string]any{"name": "fixture_cmd", "description": "joins its arguments"},
			map[string]any{"name": "slow_cmd", "description": "waits its first argument in ms"}},
		"hooks": []string{"before_prompt", "before_tool_call", "after_tool_call"}, "ui": []string{"status"}, "context": true,
		"tool_renderers": []string{"echo"},
		"protocol": map[string]any{"version": p.APIVersion, "features": features,
			"limits": map[string]any{"max_concurrent_requests": c.limit}},
	}, nil)
}

func (c *conn) shutdown(f frame) {
	var p struct {
		DeadlineMS int `json:"deadline_ms"`
	}
	_ = json.Unmarshal(f.Params, &p)
	if p.DeadlineMS <= 0 {
		p.DeadlineMS = 5000
	}
	deadline := time.Now().Add(time.Duration(p.DeadlineMS) * time.Millisecond)
	if mode == modeShutdownDrops {
		c.respond(f.ID, map[string]any{}, nil)
		os.Exit(0)
	}
	c.mu.Lock()
	c.draining = true
	armed := c.armed
	c.mu.Unlock()
	if mode == modeShutdownNoAck {
		return
	}
	// Drain in-flight calls to the deadline, then cancel what is left (it answers -32800).
	c.drain(time.Until(deadline))
	c.mu.Lock()
	for _, cancel := range c.running {
		cancel()
	}
	c.mu.Unlock()
	c.drain(time.Second) // the cancelled handlers answer -32800
	// on_shutdown: a stuck handler is abandoned at the deadline.
	if armed {
		if mode == modeStuckShutdown {
			hang()
		}
		time.Sleep(time.Until(deadline))
		if mode == modeShutdownErrorAck {
			c.respond(f.ID, nil, &rpcError{Code: -32603, Message: "on_shutdown did not finish"})
			os.Exit(0)
		}
	}
	c.respond(f.ID, map[string]any{}, nil)
	os.Exit(0)
}

func text(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
}

func withStructured(s string, sc any) map[string]any {
	r := text(s)
	r["structured_content"] = sc
	return r
}

func invalidParams(format string, args ...any) *rpcError {
	return &rpcError{Code: -32602, Message: fmt.Sprintf(format, args...)}
}

func (c *conn) handle(ctx context.Context, f frame) (any, *rpcError) {
	switch f.Method {
	case "tool/call":
		var p struct {
			Name     string                     `json:"name"`
			Args     map[string]json.RawMessage `json:"arguments"`
			Revision *int                       `json:"catalog_revision"`
			Owner    *struct {
				SessionID  string `json:"session_id"`
				InstanceID string `json:"extension_instance_id"`
				Generation int64  `json:"process_generation"`
			} `json:"resource_owner"`
			CallID string `json:"call_id"`
			Key    string `json:"idempotency_key"`
		}
		if mode != modeLenientJSON && mode != modeUnboundedNesting {
			// params sit inside the envelope: the bound counts the whole frame.
			if _, err := strictjson.ParseNested(f.Params, 1); err != nil {
				return nil, invalidParams("tool/call params: %v", err)
			}
		}
		dec := json.NewDecoder(strings.NewReader(string(f.Params)))
		if mode != modeLenientParams {
			dec.DisallowUnknownFields()
		}
		if err := dec.Decode(&p); err != nil {
			return nil, invalidParams("tool/call params: %v", err)
		}
		if p.Owner != nil && p.Owner.SessionID == "" && mode != modeLenientParams {
			return nil, invalidParams("resource_owner.session_id must be 1..256 bytes")
		}
		if rerr := checkIdempotencyKey(f.Params, p.Key); rerr != nil {
			return nil, rerr
		}
		if res, ok := configTool(p.Name, p.Key); ok {
			return res, nil
		}
		res, rerr := c.tool(ctx, f.ID, p.Name, p.Args, p.Revision)
		return resultsMode(p.Name, res), rerr
	case "command/execute":
		var p struct {
			Name      string   `json:"name"`
			Arguments []string `json:"arguments"`
		}
		_ = json.Unmarshal(f.Params, &p)
		if p.Name == "slow_cmd" && len(p.Arguments) > 0 {
			if e := failPrompt(p.Arguments[0]); e != nil {
				return nil, e
			}
			seq := 1
			if mode == modeProgressZero {
				seq = 0
			}
			c.notify("$/progress", map[string]any{"parent_request_id": f.ID, "sequence": seq, "event": map[string]any{"type": "status", "message": "waiting"}})
			ms, _ := strconv.Atoi(p.Arguments[0])
			if e := slowFor(ctx, ms); e != nil {
				return nil, e
			}
			return map[string]any{"text": "slept"}, nil
		}
		if p.Name != "fixture_cmd" {
			return nil, invalidParams("command %q is not served", p.Name)
		}
		sep := " "
		if mode == modeBadCommand {
			sep = ","
		}
		return map[string]any{"text": strings.Join(p.Arguments, sep)}, nil
	case "hook/run":
		var p struct {
			Hook    string `json:"hook"`
			Payload struct {
				Prompt string `json:"prompt"`
			} `json:"payload"`
		}
		_ = json.Unmarshal(f.Params, &p)
		if e := slowPrompt(ctx, p.Payload.Prompt); e != nil {
			return nil, e
		}
		if p.Hook != "before_prompt" && p.Hook != "before_tool_call" && p.Hook != "after_tool_call" {
			return nil, invalidParams("hook %q is not served", p.Hook)
		}
		if e := ownerHookError(p.Hook); e != nil {
			return nil, e
		}
		return hookDisposition(f.Params), nil
	case "context/collect":
		var p struct {
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(f.Params, &p); err != nil {
			return nil, invalidParams("context/collect params: %v", err)
		}
		if e := slowPrompt(ctx, p.Prompt); e != nil {
			return nil, e
		}
		return map[string]any{"items": []any{map[string]any{"label": "fixture", "content": "fixture context", "placement": "system_suffix"}}}, nil
	case "status/collect":
		var p struct {
			Surface string `json:"surface"`
			Owner   struct {
				SessionID string `json:"session_id"`
			} `json:"resource_owner"`
		}
		_ = json.Unmarshal(f.Params, &p)
		if p.Surface != "status" {
			return nil, invalidParams("surface %q is not contributed", p.Surface)
		}
		if e := slowPrompt(ctx, p.Owner.SessionID); e != nil {
			return nil, e
		}
		if mode == modeBadShape {
			return map[string]any{"surface": "status", "text": "fixture ready", "priority": "high"}, nil
		}
		return map[string]any{"surface": "status", "text": "fixture ready", "priority": 0}, nil
	case "tool/render":
		var p struct {
			Name      string `json:"name"`
			Arguments struct {
				Value any `json:"value"`
			} `json:"arguments"`
		}
		_ = json.Unmarshal(f.Params, &p)
		if p.Name != "echo" {
			return nil, invalidParams("no renderer for tool %q", p.Name)
		}
		if v, ok := p.Arguments.Value.(string); ok {
			if e := slowPrompt(ctx, v); e != nil {
				return nil, e
			}
		}
		return map[string]any{"segments": []any{map[string]any{"text": "echo", "style_role": nil}}}, nil
	}
	if mode == modeUnknownCode {
		return nil, &rpcError{Code: -32603, Message: "no handler"}
	}
	return nil, &rpcError{Code: -32601, Message: "method not found: " + f.Method, Data: json.RawMessage(fmt.Sprintf(`{"method":%q}`, f.Method))}
}

// slowFor waits ms while watching cancellation (no-cancel-other: not watching).
func slowFor(ctx context.Context, ms int) *rpcError {
	if mode == modeNoCancelOther {
		ctx = context.Background()
	}
	select {
	case <-time.After(time.Duration(ms) * time.Millisecond):
		return nil
	case <-ctx.Done():
		return &rpcError{Code: -32800, Message: "request cancelled"}
	}
}

// failPrompt is the uncaught failure of a "fail:<message>" prompt: -32603 naming it
// (uncaught-wrong-code: -32602).
func failPrompt(prompt string) *rpcError {
	msg, ok := strings.CutPrefix(prompt, "fail:")
	if !ok {
		return nil
	}
	if mode == modeUncaughtWrongCode {
		return invalidParams("%s", msg)
	}
	return &rpcError{Code: -32603, Message: msg}
}

// slowPrompt waits when the prompt is "slow:<ms>" (fixture.md).
func slowPrompt(ctx context.Context, prompt string) *rpcError {
	if e := failPrompt(prompt); e != nil {
		return e
	}
	rest, ok := strings.CutPrefix(prompt, "slow:")
	if !ok {
		return nil
	}
	ms, _ := strconv.Atoi(rest)
	return slowFor(ctx, ms)
}

func arg[T any](args map[string]json.RawMessage, name string) T {
	var v T
	_ = json.Unmarshal(args[name], &v)
	return v
}

func (c *conn) tool(ctx context.Context, id json.RawMessage, name string, args map[string]json.RawMessage, revision *int) (any, *rpcError) {
	ownerPrivateCrash(name)
	c.mu.Lock()
	rev := c.revision
	if revision != nil && mode != modeCatalogNoPin {
		rev = *revision
	}
	catalog, ok := c.catalogs[rev]
	c.mu.Unlock()
	if !ok {
		return nil, invalidParams("catalog_revision %d is unknown or retired", rev)
	}
	if t, ok := catalog[name]; ok {
		return text(t), nil
	}
	if !slices.Contains(tools, name) {
		if mode == modeUnknownInternal {
			return nil, &rpcError{Code: -32603, Message: "no such tool"}
		}
		return nil, invalidParams("tool %q is not in catalog revision %d", name, rev)
	}
	if res, e, done := exerciseTool(name, args); done {
		return res, e
	}
	if name == "sandbox_probe" {
		return sandboxProbe(args)
	}
	parent := map[string]any{"parent_request_id": id}
	switch name {
	case "echo":
		return c.echo(args["value"]), nil
	case "fail_with":
		e := &rpcError{Code: arg[int64](args, "code"), Message: arg[string](args, "message"), Data: args["data"]}
		if mode == modeErrorRewrite {
			e.Data = nil
		}
		return nil, e
	case "slow":
		select {
		case <-time.After(time.Duration(arg[int](args, "ms")) * time.Millisecond):
			return text("slept"), nil
		case <-ctx.Done():
			return nil, &rpcError{Code: -32800, Message: "request cancelled"}
		}
	case "ignore_cancel":
		c.notify("$/progress", map[string]any{"parent_request_id": id, "sequence": 1,
			"event": map[string]any{"type": "status", "message": "ignoring cancellation", "current": 1, "total": 1}})
		if mode == modeHonourCancel {
			select {
			case <-time.After(time.Duration(arg[int](args, "ms")) * time.Millisecond):
				return text("ignored"), nil
			case <-ctx.Done():
				return nil, &rpcError{Code: -32800, Message: "request cancelled"}
			}
		}
		time.Sleep(time.Duration(arg[int](args, "ms")) * time.Millisecond) // deaf to ctx: non-cooperative
		return text("ignored"), nil
	case "progress_n":
		n := arg[int](args, "n")
		for i := 1; i <= n; i++ {
			seq := i
			if mode == modeProgressZero {
				seq = i - 1
			}
			c.notify("$/progress", map[string]any{"parent_request_id": id, "sequence": seq,
				"event": map[string]any{"type": "status", "message": fmt.Sprintf("step %d", i), "current": i, "total": n}})
		}
		return text("done"), nil
	case "print_stdout":
		if mode == modeStdoutGarbage {
			c.wmu.Lock()
			fmt.Fprintln(c.out, arg[string](args, "text"))
			c.wmu.Unlock()
		} else {
			fmt.Println(arg[string](args, "text"))
		}
		cmd := exec.Command("sh", "-c", "echo child-output")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if mode == modeStdoutGarbage {
			cmd.Stdout = c.out
		}
		_ = cmd.Run()
		return text("printed"), nil
	case "crash":
		if mode == modeCrashAnswers {
			return nil, &rpcError{Code: -32603, Message: "crashed"}
		}
		code := 3
		if _, ok := args["code"]; ok {
			code = arg[int](args, "code")
		}
		os.Exit(code)
	case "callback_n":
		n := arg[int](args, "n")
		calls := n
		if mode == modeCallbackShort {
			calls = n / 2
		}
		for range calls {
			if _, e := c.call(ctx, "kv.get", map[string]any{"namespace": "conformance-fixture", "key": "callback"}); e != nil {
				return nil, e
			}
		}
		return withStructured("called", map[string]any{"calls": n}), nil
	case "big_result":
		n := arg[int](args, "bytes")
		if n > 1<<20-200 && mode != modeBigResultWritten {
			return nil, &rpcError{Code: -32603, Message: fmt.Sprintf("result of about %d bytes exceeds the 1048576-byte message limit", n)}
		}
		return text(strings.Repeat("x", n)), nil
	case "publish":
		return c.publish(ctx, id, args)
	case "register_dynamic", "unregister_dynamic":
		return c.catalogChange(ctx, name, args)
	case "replace_dynamic":
		return c.catalogReplace(ctx, args)
	case "ask":
		return c.ask(ctx, id, args)
	case "secret":
		p := map[string]any{"parent_request_id": id, "name": arg[string](args, "name")}
		res, e := c.call(ctx, "secret/get", p)
		if e != nil {
			if mode == modeSecretRewrite {
				return nil, &rpcError{Code: -32603, Message: e.Message}
			}
			return nil, e
		}
		var v struct {
			Value string `json:"value"`
		}
		_ = json.Unmarshal(res, &v)
		sum := sha256.Sum256([]byte(v.Value))
		return withStructured("secret", map[string]any{"sha256": hex.EncodeToString(sum[:])}), nil
	case "present":
		n := arg[int](args, "activities")
		if n > 128 && mode != modePresentNoLimit {
			return nil, invalidParams("snapshot has %d activities; the limit is 128", n)
		}
		acts := []any{}
		for i := range n {
			acts = append(acts, map[string]any{"id": fmt.Sprintf("a%d", i), "label": fmt.Sprintf("activity %d", i), "state": "running"})
		}
		c.notify("presentation/update", map[string]any{"parent_request_id": id,
			"snapshot": map[string]any{"revision": arg[int](args, "revision"), "activities": acts, "actions": []any{}}})
		return text("presented"), nil
	case "spawn_child":
		children := 1
		if mode == modeSpawnBadPolicy {
			children = 9
		}
		res, e := c.call(ctx, "agent/spawn", map[string]any{"parent_request_id": id,
			"task_name": arg[string](args, "task_name"), "message": arg[string](args, "message"), "idempotency_key": arg[string](args, "key"),
			"policy": map[string]any{"tools": []string{"read"}, "max_depth": 1, "max_concurrent_children": children, "max_turns": 1,
				"max_tokens": nil, "max_cost_microdollars": 0, "max_output_bytes": 4096, "timeout_ms": 10000}})
		if e != nil {
			return nil, e
		}
		var sp struct {
			AgentID string `json:"agent_id"`
		}
		_ = json.Unmarshal(res, &sp)
		res, e = c.call(ctx, "agent/wait", map[string]any{"parent_request_id": id, "timeout_ms": 1000})
		if e != nil {
			return nil, e
		}
		var w struct {
			TimedOut bool `json:"timed_out"`
		}
		_ = json.Unmarshal(res, &w)
		return withStructured("spawned", map[string]any{"agent_id": sp.AgentID, "timed_out": w.TimedOut}), nil
	case "kv_commit", "kv_get":
		if e := c.migrateKV(ctx); e != nil {
			return nil, e
		}
		method := map[string]string{"kv_commit": "kv.commit", "kv_get": "kv.get"}[name]
		res, e := c.call(ctx, method, args)
		if e != nil {
			if mode == modeKVRewrite {
				return nil, &rpcError{Code: -32603, Message: e.Message}
			}
			if mode == modeKVSecretSwallowed && e.Code == -32020 {
				return withStructured("kv", json.RawMessage(`{"versions":[]}`)), nil
			}
			return nil, e
		}
		return withStructured("kv", res), nil
	case "notify":
		p := map[string]any{"message": arg[string](args, "message"), "level": arg[string](args, "level")}
		if t, ok := args["title"]; ok && mode != modeNotifyNoTitle {
			p["title"] = t
		}
		c.notify("notification", p)
		return text("notified"), nil
	case "contribute":
		placement := "prompt_prefix"
		if mode == modeContributeWrong {
			placement = "system_prefix"
		}
		c.notify("context/contribution", map[string]any{"items": []any{map[string]any{"label": "fixture", "content": arg[string](args, "text"), "placement": placement}}})
		c.notify("status/contribution", map[string]any{"surface": "status", "text": arg[string](args, "text"), "priority": 1})
		return text("contributed"), nil
	case "policy":
		return c.policy(ctx, id, args)
	case "kv_list":
		if mode == modeKVListNoCursor {
			delete(args, "cursor")
		}
		res, e := c.call(ctx, "kv.list", args)
		if e != nil {
			return nil, e
		}
		return withStructured("listed", res), nil
	case "agent_op":
		return c.agentOp(ctx, id, args)
	case "arm_stuck_shutdown":
		c.mu.Lock()
		c.armed = true
		c.mu.Unlock()
		return text("armed"), nil
	case "suite_args":
		return suiteArgs(args)
	case "typed":
		var count int64
		var label string
		if mode != modeNoParamCheck {
			if e := judgeArgs(typedSchema, args); e != nil {
				return nil, e
			}
			// The schema passed it, so count is an integer, maybe written 1.0 (draft 2020-12).
			var f float64
			if json.Unmarshal(args["count"], &f) != nil || f != math.Trunc(f) ||
				mode == modeIntegralRefused && strings.ContainsAny(string(args["count"]), ".eE") {
				return nil, &rpcError{Code: -32602, Message: "invalid arguments: /count: not an integer", Data: json.RawMessage(`{"pointer":"/count","keyword":"type"}`)}
			}
			count = int64(f)
		} else {
			_ = json.Unmarshal(args["count"], &count)
		}
		_ = json.Unmarshal(args["label"], &label)
		return withStructured(fmt.Sprintf("%s:%d", label, count), map[string]any{"count": count}), nil
	}
	_ = parent
	return nil, invalidParams("tool %q is not implemented", name)
}

func (c *conn) echo(value json.RawMessage) any {
	c.mu.Lock()
	c.echoes++
	n := c.echoes
	if c.echoValue == nil {
		c.echoValue = map[string]json.RawMessage{}
	}
	key := fmt.Sprint(n)
	c.echoValue[key] = value
	out := value
	if mode == modeEchoSwap {
		for k, v := range c.echoValue {
			if k != key {
				out = v
				break
			}
		}
	}
	c.mu.Unlock()
	if mode == modeEchoSwap {
		time.Sleep(time.Millisecond) // widen the overlap so concurrent echoes meet
	}
	c.mu.Lock()
	delete(c.echoValue, key)
	c.mu.Unlock()
	if mode == modeEchoTired && n > 1000 {
		return map[string]any{"content": []any{map[string]any{"type": "text", "text": "tired"}}, "is_error": true}
	}
	return withStructured("echo", map[string]any{"value": out})
}

func (c *conn) publish(ctx context.Context, id json.RawMessage, args map[string]json.RawMessage) (any, *rpcError) {
	n := arg[int](args, "bytes")
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i % 251)
	}
	mime := arg[string](args, "mime_type")
	if mime == "" {
		mime = "application/octet-stream"
	}
	p := map[string]any{"parent_request_id": id, "mime_type": mime}
	if arg[string](args, "mode") == "path" {
		path := filepath.Join(os.Getenv("OCTET_EXTENSION_SCRATCH"), "fixture.bin")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, &rpcError{Code: -32603, Message: err.Error()}
		}
		sum := sha256.Sum256(data)
		p["path"], p["size"], p["sha256"] = "fixture.bin", n, hex.EncodeToString(sum[:])
		switch arg[string](args, "corrupt") {
		case "size":
			p["size"] = n + 1
		case "sha256":
			p["sha256"] = strings.Repeat("0", 64)
		}
	} else {
		p["data"] = base64.StdEncoding.EncodeToString(data)
	}
	res, e := c.call(ctx, "artifact/publish", p)
	if e != nil {
		if mode == modeArtifactIgnore {
			return withStructured("published", map[string]any{"artifact_id": "none", "size": n, "sha256": ""}), nil
		}
		return nil, e
	}
	var sc map[string]any
	_ = json.Unmarshal(res, &sc)
	return withStructured("published", sc), nil
}

func (c *conn) catalogChange(ctx context.Context, tool string, args map[string]json.RawMessage) (any, *rpcError) {
	name := arg[string](args, "name")
	var res json.RawMessage
	var e *rpcError
	if tool == "register_dynamic" {
		res, e = c.call(ctx, "tools/register", map[string]any{"tools": []any{map[string]any{"name": name, "description": "dynamic", "parameters": map[string]any{"type": "object"}}}})
	} else {
		res, e = c.call(ctx, "tools/unregister", map[string]any{"names": []string{name}})
	}
	if e != nil {
		return nil, e
	}
	var ack struct {
		Revision int `json:"revision"`
	}
	_ = json.Unmarshal(res, &ack)
	c.mu.Lock()
	defer c.mu.Unlock()
	if ack.Revision != c.revision+1 {
		fatal("protocol error: catalog revision %d after %d", ack.Revision, c.revision)
	}
	next := map[string]string{}
	for k, v := range c.catalogs[c.revision] {
		next[k] = v
	}
	if tool == "register_dynamic" {
		next[name] = arg[string](args, "text")
	} else {
		delete(next, name)
	}
	c.revision = ack.Revision
	c.catalogs[c.revision] = next
	delete(c.catalogs, c.revision-8) // retain 8 committed catalogs
	return withStructured("catalog", map[string]any{"revision": c.revision}), nil
}

func (c *conn) ask(ctx context.Context, id json.RawMessage, args map[string]json.RawMessage) (any, *rpcError) {
	parent := id
	if mode == modeAskWrongParent {
		parent = json.RawMessage("0")
	}
	prompt := arg[string](args, "prompt")
	if arg[string](args, "kind") == "confirm" {
		if mode == modeAskUnstable {
			prompt += fmt.Sprintf(" (process %d)", os.Getpid())
		}
		res, e := c.call(ctx, "confirmation/request", map[string]any{"message": prompt, "parent_request_id": parent})
		if e != nil {
			return nil, e
		}
		var r struct {
			Confirmed bool `json:"confirmed"`
		}
		_ = json.Unmarshal(res, &r)
		return withStructured("asked", map[string]any{"answer": r.Confirmed}), nil
	}
	secret := arg[bool](args, "secret")
	p := map[string]any{"parent_request_id": parent, "prompt": prompt, "secret": secret}
	if opts, ok := args["options"]; ok && mode != modeOptionsDropped {
		p["options"] = opts
	}
	if arg[bool](args, "allow_free_text") && mode != modeOptionsDropped {
		p["allow_free_text"] = true
	}
	res, e := c.call(ctx, "input/request", p)
	if e != nil {
		return nil, e
	}
	var r struct {
		Value *string `json:"value"`
	}
	_ = json.Unmarshal(res, &r)
	if secret {
		var h any
		if r.Value != nil {
			sum := sha256.Sum256([]byte(*r.Value))
			h = hex.EncodeToString(sum[:])
		}
		return withStructured("asked", map[string]any{"answer_sha256": h}), nil
	}
	return withStructured("asked", map[string]any{"answer": r.Value}), nil
}

func (c *conn) policy(ctx context.Context, id json.RawMessage, args map[string]json.RawMessage) (any, *rpcError) {
	p := map[string]any{"parent_request_id": id, "intent": map[string]any{"kind": "fixture", "operation": arg[string](args, "operation")}}
	res, e := c.call(ctx, "policy/evaluate", p)
	if e != nil {
		return nil, e
	}
	if mode != modeTrustHostResults {
		doc, err := strictjson.Parse(res)
		if err == nil {
			err = protocol.Validate("PolicyEvaluateResult", doc)
		}
		if err != nil {
			return nil, &rpcError{Code: -32603, Message: "the host's policy/evaluate result does not match the schema: " + err.Error()}
		}
	}
	var d struct {
		Decision string `json:"decision"`
		Token    string `json:"approval_token"`
	}
	_ = json.Unmarshal(res, &d)
	var redeemed any
	if d.Decision == "ask" && d.Token != "" && mode != modePolicyNoRedeem {
		p["approval_token"] = d.Token
		res, e := c.call(ctx, "policy/evaluate", p)
		if e != nil {
			return nil, e
		}
		var r struct {
			Decision string `json:"decision"`
		}
		_ = json.Unmarshal(res, &r)
		redeemed = r.Decision
	}
	return withStructured("evaluated", map[string]any{"decision": d.Decision, "redeemed": redeemed}), nil
}

func (c *conn) agentOp(ctx context.Context, id json.RawMessage, args map[string]json.RawMessage) (any, *rpcError) {
	p := map[string]any{"parent_request_id": id}
	var method string
	switch arg[string](args, "op") {
	case "message", "follow_up":
		method = "agent/" + arg[string](args, "op")
		p["target"], p["message"] = arg[string](args, "target"), arg[string](args, "message")
	case "interrupt":
		method = "agent/interrupt"
		p["target"] = arg[string](args, "target")
	case "models":
		method = "agent/models"
		p["limit"] = 50
		if _, ok := args["limit"]; ok {
			p["limit"] = arg[int](args, "limit")
		}
		if q := arg[string](args, "query"); q != "" {
			p["query"] = q
		}
	case "list":
		method = "agent/list"
	case "wait":
		method = "agent/wait"
		p["timeout_ms"] = 1000
	default:
		return nil, invalidParams("op %q is not one of message, follow_up, models, list, interrupt, wait", arg[string](args, "op"))
	}
	res, e := c.call(ctx, method, p)
	if e != nil {
		if mode == modeAgentRewrite {
			return nil, &rpcError{Code: -32603, Message: e.Message}
		}
		return nil, e
	}
	var sc map[string]any
	_ = json.Unmarshal(res, &sc)
	if method == "agent/wait" {
		sc = map[string]any{"timed_out": sc["timed_out"]}
	}
	return withStructured("steered", sc), nil
}

// leadingID finds a request's id where this fixture's peers write it: right after "jsonrpc".
var leadingID = regexp.MustCompile(`^\{"jsonrpc":"2\.0","id":([0-9]+),`)

// nestingAt is the byte offset of the first array or object opened past MAX_JSON_DEPTH, -1
// if none; strings are skipped (a bracket in one does not nest).
func nestingAt(line []byte) int {
	depth, inString := 0, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			if depth++; depth > strictjson.MaxDepth {
				return i
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return -1
}
