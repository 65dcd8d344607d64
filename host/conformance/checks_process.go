package conformance

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Process-level checks: errors, limits, stray output, crashes, EOF and shutdown.

// otherMethods are the fixture's requests besides tool/call, one per method, for the
// checks that expect every method to be refused alike (-32001, -32003).
var otherMethods = []struct {
	method string
	params map[string]any
}{
	{protocol.MethodCommandExecute, map[string]any{"name": "fixture_cmd", "arguments": []string{"x"}}},
	{protocol.MethodHookRun, map[string]any{"hook": "before_prompt", "payload": hookPayloads["before_prompt"]}},
	{protocol.MethodContextCollect, map[string]any{"session_id": "conformance-session"}},
	{protocol.MethodStatusCollect, map[string]any{"surface": "status"}},
	{protocol.MethodToolRender, map[string]any{"name": "echo", "arguments": map[string]any{}, "result": map[string]any{"content": []any{map[string]any{"type": "text", "text": "x"}}}}},
}

// ShutdownDrain is SHUTDOWN_DRAIN_MS (docs/design/wire.md §8).
const ShutdownDrain = 5 * time.Second

// exitGrace is what the host allows on top of a stated bound before it kills.
const exitGrace = 2 * time.Second

func init() {
	register(
		&Check{
			Name:        "errors.verbatim",
			Description: "fail_with's structured error reaches the host exactly: code, message and data (and no data when none was given)",
			Requirement: "wire.md §1 handler-authored errors carried verbatim; docs/conformance.md#the-checks (transport compatibility): structured errors carried verbatim",
			Tier:        Conditional,
			Tools:       []string{"fail_with"},
			Covers:      []string{protocol.MethodToolCall},
			Run:         checkVerbatimErrors,
		},
		&Check{
			Name:        "result.oversized_refused",
			Description: "a result over MAX_MESSAGE_BYTES is answered -32603 naming the limit instead of written; the connection stays usable",
			Requirement: "wire.md §1 max line; fixture.md big_result",
			Tier:        Conditional,
			Tools:       []string{"big_result"},
			Covers:      []string{reqError(protocol.MethodToolCall, protocol.CodeInternalError)},
			Run:         checkBigResult,
		},
		&Check{
			Name:        "frame.oversized_closes",
			Description: "a frame over MAX_MESSAGE_BYTES sent to the extension closes its connection cleanly: the process exits, nothing but JSON-RPC on stdout",
			Requirement: "wire.md §1 oversized line is a protocol error",
			Tier:        Required,
			Run:         checkOversizedFrame,
		},
		&Check{
			Name:        "stdout.stray_output",
			Description: "ordinary stdout prints from handler code and from a child process leave the protocol stream intact",
			Requirement: "wire.md §10 private duplicate of fd 1; docs/conformance.md#the-checks (transport compatibility): stray stdout leaves the stream intact",
			Tier:        Conditional,
			Tools:       []string{"print_stdout", "echo"},
			Run:         checkStrayStdout,
		},
		&Check{
			Name:        "crash.transport_error",
			Description: "a crash mid-call is a transport error (not a hang, not an error answer), later calls fail the same way, and a restarted process serves again",
			Requirement: "docs/conformance.md#the-checks (transport compatibility): crash mid-call reported as a transport error; restart",
			Tier:        Conditional,
			Tools:       []string{"crash", "echo"},
			Covers:      []string{protocol.MethodToolCall},
			Run:         checkCrash,
		},
		&Check{
			Name:        "eof.exit",
			Description: "on stdin EOF the extension drains and exits 0 within SHUTDOWN_DRAIN_MS",
			Requirement: "wire.md §10 stdin EOF: the same bounded drain, then exit 0",
			Tier:        Required,
			Run:         checkEOF,
		},
		&Check{
			Name:        "eof.drain",
			Description: "on stdin EOF an in-flight call still drains to its result before the exit 0",
			Requirement: "wire.md §10 stdin EOF: the same bounded drain, then exit 0",
			Tier:        Conditional,
			Tools:       []string{"slow", "echo"},
			Run:         checkEOFDrain,
		},
		&Check{
			Name:        "shutdown.ack",
			Description: "shutdown is acknowledged with {} and the process exits 0 within its deadline",
			Requirement: "wire.md §5 shutdown, §10 shutdown sequence",
			Tier:        Required,
			Covers:      []string{protocol.MethodShutdown},
			Run:         checkShutdownAck,
		},
		&Check{
			Name:        "shutdown.drain",
			Description: "after shutdown, new requests are refused -32003 while an in-flight call drains to its result; then the acknowledgement and exit 0",
			Requirement: "wire.md §10 shutdown: stop admission (-32003), drain to SHUTDOWN_DRAIN_MS, ack, exit 0",
			Tier:        Conditional,
			Tools:       []string{"slow", "echo"},
			Covers: []string{
				protocol.MethodShutdown,
				reqError(protocol.MethodToolCall, protocol.CodeShuttingDown),
				reqError(protocol.MethodCommandExecute, protocol.CodeShuttingDown),
				reqError(protocol.MethodHookRun, protocol.CodeShuttingDown),
				reqError(protocol.MethodContextCollect, protocol.CodeShuttingDown),
				reqError(protocol.MethodStatusCollect, protocol.CodeShuttingDown),
				reqError(protocol.MethodToolRender, protocol.CodeShuttingDown),
			},
			Run: checkShutdownDrain,
		},
		&Check{
			Name:        "shutdown.bounded",
			Description: "with an on_shutdown handler stuck forever, the process is gone within deadline_ms + grace, by itself or killed by the host (the report says which), and any acknowledgement is {}",
			Requirement: "docs/host.md bounded shutdown (drain, cancel, SIGTERM, SIGKILL); wire.md §5 shutdown.result",
			Tier:        Conditional,
			Tools:       []string{"arm_stuck_shutdown"},
			Covers:      []string{protocol.MethodShutdown},
			Run:         checkShutdownBounded,
		},
		&Check{
			Name:        "shutdown.self_bounded",
			Description: "with an on_shutdown handler stuck forever, the SDK itself abandons it at deadline_ms and exits 0, so the host never has to kill",
			Requirement: "wire.md §10 on_shutdown handlers bounded by the remaining deadline, ack, exit 0",
			Tier:        Conditional,
			Tools:       []string{"arm_stuck_shutdown"},
			Covers:      []string{protocol.MethodShutdown},
			Run:         checkShutdownSelfBounded,
		},
	)
}

func checkVerbatimErrors(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	data := map[string]any{"where": "conformance", "list": []any{1, "two", nil, true}, "nested": map[string]any{"ok": false}}
	resp, err := t.toolCall(s, "fail_with", map[string]any{"code": 4242, "message": "authored failure ✓", "data": data})
	if err != nil {
		return err
	}
	want := fmt.Sprintf(`{"code":4242,"message":"authored failure ✓","data":%s}`, mustJSON(data))
	if resp.Error == nil || resp.Error.Code != 4242 || resp.Error.Message != "authored failure ✓" || !jsonEqual(resp.Error.Data, mustJSON(data)) {
		return fail("error "+want, "%s", describeError(resp))
	}
	resp, err = t.toolCall(s, "fail_with", map[string]any{"code": -31000, "message": "no data"})
	if err != nil {
		return err
	}
	if resp.Error == nil || resp.Error.Code != -31000 || resp.Error.Message != "no data" || resp.Error.Data != nil {
		return fail(`error {"code":-31000,"message":"no data"} without a data member`, "%s", describeError(resp))
	}
	return nil
}

func describeError(resp Response) string {
	if resp.Error == nil {
		return resp.String()
	}
	return string(mustJSON(resp.Error))
}

func checkBigResult(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	resp, err := t.toolCall(s, "big_result", map[string]any{"bytes": MaxMessageBytes + 4096})
	if err != nil {
		return err
	}
	if err := expectCode(resp, -32603, "internal error: result over the message limit"); err != nil {
		return err
	}
	if msg := resp.Error.Message; !strings.Contains(msg, "1048576") && !strings.Contains(msg, "MiB") {
		return fail("the -32603 message to name the limit (1048576 bytes)", "%q", msg)
	}
	resp, err = t.toolCall(s, "big_result", map[string]any{"bytes": 16})
	if err != nil {
		return fmt.Errorf("after the refused result the connection should still work: %w", err)
	}
	_, err = expectText(resp, strings.Repeat("x", 16))
	return err
}

func checkOversizedFrame(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	pad := strings.Repeat("x", MaxMessageBytes)
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":900001,"method":"tool/call","params":{"name":"echo","arguments":{"value":"%s"}}}`, pad)
	// The write may block once the extension stops reading; it is never waited for.
	go func() { _ = s.WriteLine([]byte(line)) }()
	start := time.Now()
	if !s.WaitExit(t.Drain() + exitGrace) {
		return fail(fmt.Sprintf("the process to close the connection and exit within %s of a %d-byte frame", t.Drain()+exitGrace, len(line)), "still running")
	}
	t.Note("exited %d after %s", s.ExitCode(), time.Since(start).Round(time.Millisecond))
	return nil
}

func checkStrayStdout(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	const text = "conformance stray text {not json"
	resp, err := t.toolCall(s, "print_stdout", map[string]any{"text": text})
	if err != nil {
		return err
	}
	if _, err := expectText(resp, "printed"); err != nil {
		return err
	}
	resp, err = t.toolCall(s, "echo", map[string]any{"value": "intact"})
	if err != nil {
		return err
	}
	if err := expectEcho(resp, "intact"); err != nil {
		return err
	}
	if s.StderrContains(text) {
		t.Note("handler output went to stderr")
	} else {
		t.Note("handler output not seen on stderr (only required to stay off the protocol stream)")
	}
	return nil
}

func checkCrash(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	start := time.Now()
	resp, err := t.toolCall(s, "crash", map[string]any{"code": 7})
	switch {
	case err == nil:
		return fail("a transport error (the process exits without answering)", "an answer: %s", resp)
	case !errors.Is(err, ErrTransport):
		return fail("a transport error within "+t.Timeout().String(), "%v", err)
	}
	detected := time.Since(start)
	if !s.WaitExit(exitGrace) {
		return fail("the process to be gone after the crash", "still running")
	}
	if code := s.ExitCode(); code != 7 {
		return fail("exit code 7 (crash {code: 7})", "%d", code)
	}
	if _, err := t.toolCall(s, "echo", map[string]any{"value": 1}); !errors.Is(err, ErrTransport) {
		return fail("a later call on the dead connection to fail as a transport error", "%v", err)
	}
	s2, _, err := t.Open(InitOptions{})
	if err != nil {
		return fmt.Errorf("restart: %w", err)
	}
	resp, err = t.toolCall(s2, "echo", map[string]any{"value": "restarted"})
	if err != nil {
		return fmt.Errorf("restarted process: %w", err)
	}
	if err := expectEcho(resp, "restarted"); err != nil {
		return err
	}
	// The same through the reference host: a transport error, then its supervisor
	// restarts the process and the next call is served by the new generation.
	h, stopHost, err := referenceHost(t)
	if err != nil {
		return err
	}
	defer stopHost()
	_, _, err = h.CallTool(t.Ctx, "crash", []byte(`{"code":7}`))
	var te *host.TransportError
	if !errors.As(err, &te) {
		return fail("the reference host to report the crash as a *host.TransportError", "%v", err)
	}
	if err := echoThroughHost(t, h, "after the restart"); err != nil {
		return err
	}
	st := h.Extension(t.Ext.Manifest.Name).Status()
	t.Note("crash detected in %s; reference host: %q, restarted as generation %d", detected.Round(time.Microsecond), te.Reason, st.Generation)
	return nil
}

func checkEOF(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	start := time.Now()
	if err := s.CloseStdin(); err != nil {
		return err
	}
	if !s.WaitExit(t.Drain() + exitGrace) {
		return fail(fmt.Sprintf("exit within %s of stdin EOF", t.Drain()+exitGrace), "still running")
	}
	if code := s.ExitCode(); code != 0 {
		return fail("exit code 0 after stdin EOF", "%d", code)
	}
	t.Note("exited in %s", time.Since(start).Round(time.Millisecond))
	return nil
}

func checkEOFDrain(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	sleep := min(time.Second, t.Drain()/2)
	id, ch, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "slow", "arguments": map[string]any{"ms": sleep.Milliseconds()}})
	if err != nil {
		return err
	}
	if resp, err := t.toolCall(s, "echo", map[string]any{"value": "admitted"}); err != nil {
		return err
	} else if err := expectEcho(resp, "admitted"); err != nil {
		return err
	}
	if err := s.CloseStdin(); err != nil {
		return err
	}
	resp, err := t.wait(s, id, ch)
	if err != nil {
		return fail("the in-flight slow call answered before the exit", "%v", err)
	}
	if _, err := expectText(resp, "slept"); err != nil {
		return err
	}
	if !s.WaitExit(t.Drain() + exitGrace) {
		return fail("exit after the drain", "still running")
	}
	if code := s.ExitCode(); code != 0 {
		return fail("exit code 0 after stdin EOF", "%d", code)
	}
	return nil
}

func checkShutdownAck(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	start := time.Now()
	resp, err := s.Call(t.Ctx, t.Drain()+exitGrace, protocol.MethodShutdown, map[string]any{"reason": "host_exit", "deadline_ms": t.Drain().Milliseconds()})
	if err != nil {
		return fail("the shutdown acknowledgement {}", "%v", err)
	}
	if resp.Error != nil || !jsonEqual(resp.Result, []byte(`{}`)) {
		return fail("the shutdown acknowledgement {}", "%s", resp)
	}
	if !s.WaitExit(t.Drain() + exitGrace) {
		return fail("exit after acknowledging shutdown", "still running")
	}
	if code := s.ExitCode(); code != 0 {
		return fail("exit code 0 after shutdown", "%d", code)
	}
	t.Note("acknowledged and exited in %s", time.Since(start).Round(time.Millisecond))
	return nil
}

func checkShutdownDrain(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	// Long enough for the requests below, short enough to drain within the deadline.
	sleep := min(3*time.Second, t.Drain()*3/4)
	slowID, slowCh, err := s.Send(protocol.MethodToolCall, map[string]any{"name": "slow", "arguments": map[string]any{"ms": sleep.Milliseconds()}})
	if err != nil {
		return err
	}
	if resp, err := t.toolCall(s, "echo", map[string]any{"value": "admitted"}); err != nil {
		return err
	} else if err := expectEcho(resp, "admitted"); err != nil {
		return err
	}
	shutID, shutCh, err := s.Send(protocol.MethodShutdown, map[string]any{"reason": "host_exit", "deadline_ms": t.Drain().Milliseconds()})
	if err != nil {
		return err
	}
	// Admission stops at some point after the shutdown request is read (the SDK may
	// handle it asynchronously); it must stop while the slow call is still draining.
	refused := false
	for tries := 0; !refused; tries++ {
		select {
		case <-shutCh:
			return fail("-32003 for a request sent while the shutdown drained the slow call", "the shutdown was acknowledged after %d requests were all served", tries)
		default:
		}
		resp, err := t.toolCall(s, "echo", map[string]any{"value": tries})
		if err != nil {
			return fail("-32003 for a request sent during the drain", "%v", err)
		}
		if resp.Error != nil {
			if err := expectCode(resp, -32003, "shutting down"); err != nil {
				return err
			}
			refused = true
		}
	}
	// Every other request method is refused the same way while draining; sent at
	// once so they all arrive well within the slow call's drain.
	type sent struct {
		method string
		id     int64
		ch     <-chan Response
	}
	var pipelined []sent
	for _, c := range otherMethods {
		id, ch, err := s.Send(c.method, c.params)
		if err != nil {
			return err
		}
		pipelined = append(pipelined, sent{c.method, id, ch})
	}
	for _, p := range pipelined {
		resp, err := t.wait(s, p.id, p.ch)
		if err != nil {
			return fmt.Errorf("%s during the drain: %w", p.method, err)
		}
		if err := expectCode(resp, -32003, p.method+" while shutting down"); err != nil {
			return err
		}
	}
	slow, err := t.wait(s, slowID, slowCh)
	if err != nil {
		return fmt.Errorf("the in-flight slow call: %w", err)
	}
	if _, err := expectText(slow, "slept"); err != nil {
		return fmt.Errorf("the in-flight slow call should drain to its result: %w", err)
	}
	ack, err := t.wait(s, shutID, shutCh)
	if err != nil {
		return fail("the shutdown acknowledgement after the drain", "%v", err)
	}
	if ack.Error != nil || !jsonEqual(ack.Result, []byte(`{}`)) {
		return fail("the shutdown acknowledgement {}", "%s", ack)
	}
	if !s.WaitExit(t.Drain() + exitGrace) {
		return fail("exit after the acknowledgement", "still running")
	}
	if code := s.ExitCode(); code != 0 {
		return fail("exit code 0 after shutdown", "%d", code)
	}
	return nil
}

// stuckShutdown arms the stuck on_shutdown handler, sends shutdown with a one-second
// deadline and ends the process within the bound, by itself or by the host's
// SIGTERM/SIGKILL. It returns how it ended.
type stuckOutcome struct {
	byItself bool
	took     time.Duration
	ack      *Response // nil: no answer before the end
	code     int
}

const stuckDeadline = time.Second

func stuckShutdown(t *T) (stuckOutcome, error) {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return stuckOutcome{}, err
	}
	resp, err := t.toolCall(s, "arm_stuck_shutdown", map[string]any{})
	if err != nil {
		return stuckOutcome{}, err
	}
	if _, err := expectText(resp, "armed"); err != nil {
		return stuckOutcome{}, err
	}
	start := time.Now()
	_, ch, err := s.Send(protocol.MethodShutdown, map[string]any{"reason": "host_exit", "deadline_ms": stuckDeadline.Milliseconds()})
	if err != nil {
		return stuckOutcome{}, err
	}
	out := stuckOutcome{byItself: s.WaitExit(stuckDeadline + exitGrace)}
	out.took = time.Since(start)
	if !out.byItself {
		s.Kill(time.Second) // the host's bound: SIGTERM, then SIGKILL to the group
	}
	// The process has ended, but its last frames may still be in the pipe: the answer
	// (or the channel's close at stdout EOF) arrives shortly. Not waiting for it would
	// miss an acknowledgement written just before the exit.
	select {
	case r, ok := <-ch:
		if ok {
			out.ack = &r
		}
	case <-time.After(exitGrace):
	}
	out.code = s.ExitCode()
	return out, nil
}

func (o stuckOutcome) String() string {
	ack := "no acknowledgement"
	if o.ack != nil {
		ack = "acknowledged with " + o.ack.String()
	}
	if o.byItself {
		return fmt.Sprintf("exited by itself in %s with code %d (%s)", o.took.Round(time.Millisecond), o.code, ack)
	}
	return fmt.Sprintf("killed by the host after %s (%s)", o.took.Round(time.Millisecond), ack)
}

func checkShutdownBounded(t *T) error {
	out, err := stuckShutdown(t)
	if err != nil {
		return err
	}
	if out.ack != nil && (out.ack.Error != nil || !jsonEqual(out.ack.Result, []byte(`{}`))) {
		return fail("the acknowledgement {} (a stuck on_shutdown is abandoned, not reported as a failed shutdown)", "%s", out)
	}
	t.Note("%s", out)
	return nil
}

func checkShutdownSelfBounded(t *T) error {
	out, err := stuckShutdown(t)
	if err != nil {
		return err
	}
	if !out.byItself {
		return fail(fmt.Sprintf("the process to end itself within deadline_ms %s + %s", stuckDeadline, exitGrace),
			"%s: the SDK did not bound the stuck on_shutdown handler by the deadline", out)
	}
	if out.code != 0 {
		return fail("exit code 0", "%s", out)
	}
	t.Note("%s", out)
	return nil
}
