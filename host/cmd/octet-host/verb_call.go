package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/manifest"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

const callHelp = `
Usage: octet-host call [flags] DIR TOOL [JSON_ARGS] [TOOL [JSON_ARGS]]...

Starts the extension in DIR, completes the handshake, calls the tools in order in one
session, prints one JSON line per tool on stdout, and shuts the extension down.

Naming DIR on the command line enables and trusts that extension for this invocation only
(nothing is written to the config); --safe-mode still refuses to start it. JSON_ARGS is a
JSON object and defaults to {}.

Each line is the tool's result object exactly as the extension returned it, or, when the
call failed, {"tool": NAME, "error": {"kind": "rpc"|"timeout"|"cancelled"|"transport"|"unavailable"|
"unknown_tool"|"result_refused"|"arguments_refused"|"hook_blocked"|"hook_failed"|
"idempotency_conflict"|"idempotency_in_progress"|"other",
"message": ..., "code"?: ..., "data"?: ...}}. The reason also goes to stderr. The host checks every result before printing
it: a result that breaks the schema's ToolResult type, the tool's output_schema or the
artifact fence is result_refused (with "pointer", "rule" and "schema"), and arguments the
tool's parameters schema forbids are arguments_refused and never sent. Every extension that
registered before_tool_call or after_tool_call hooks the call: a block is hook_blocked,
a replace changes the arguments sent or the result printed.

While a tool runs, what the extension sends is printed on stderr as text: progress (a bar
and percentage with its message), notifications, presentation snapshots (activities, a
list or tree, actions), confirmations and input requests with what answered them. A
confirmation or input request the --script does not answer is asked on the terminal when
stdin is one (--ask auto; secrets are typed without echo); --ask stdin reads the answers
from stdin whatever it is, --ask never leaves them to the default policy (deny, cancel).
--trace prints every frame and event on stderr as JSON lines.

Calls are checked against the model's catalog: a tool the session owner's allowed_tools
leave out, one of its private_tools, or one the operator denied is tool_not_allowed and
never sent. --as-owner calls as the session owner instead (DIR must be the owner): its
private tools are callable, the operator's denials still win, and any other DIR is
refused with reason not_owner. The model's catalog never shows the private tools.

Exit codes: 0 every tool succeeded; 1 a tool failed (is_error, a JSON-RPC error, a timeout
that cancelled it, the process died mid-call); 2 the extension could not start or was
refused, or a usage error.

Examples:
  octet-host call examples/go/hello-world hello_world '{"name":"Ada"}'
  octet-host call --timeout 5s --trace ./my-ext search '{"q":"x"}' summarize
  octet-host call --record --script answers.toml ./my-ext ask '{"prompt":"sure?"}'
  octet-host call --ask never ./my-ext ask '{"prompt":"sure?"}'   # denied by the default policy
  octet-host call --idempotency-key order-42 ./my-ext place '{"item":"x"}'   # a retry replays
  octet-host call --as-owner examples/go/session-owner audit_log   # the owner's private tool
`

// callStdin is where `call` reads answers to questions (--ask); tests replace it.
var callStdin io.Reader = os.Stdin

func init() {
	register("call", verb{Summary: "start one extension, call tools in order, print JSON lines", Run: runCall})
}

// toolCall is one TOOL [JSON_ARGS] pair from the command line.
type toolCall struct {
	name string
	args json.RawMessage
}

// parseToolCalls splits "TOOL [JSON] TOOL [JSON] ..." (an argument starting with "{" is
// the previous tool's arguments).
func parseToolCalls(args []string) ([]toolCall, error) {
	var calls []toolCall
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(strings.TrimSpace(a), "{") {
			return nil, fmt.Errorf("JSON arguments %q must follow a tool name", a)
		}
		c := toolCall{name: a, args: json.RawMessage(`{}`)}
		if i+1 < len(args) && strings.HasPrefix(strings.TrimSpace(args[i+1]), "{") {
			raw := json.RawMessage(args[i+1])
			var obj map[string]any
			if err := json.Unmarshal(raw, &obj); err != nil {
				return nil, fmt.Errorf("arguments of %s are not a JSON object: %v", a, err)
			}
			c.args = raw
			i++
		}
		calls = append(calls, c)
	}
	return calls, nil
}

func runCall(args []string, stdout, stderr io.Writer) int {
	// Everything this verb prints passes the host's redactor: results, error lines (message
	// and data), stderr tails in start errors, warnings and the trace.
	red := redact.New()
	so, se := redact.NewWriter(red, stdout), redact.NewWriter(red, stderr)
	defer se.Flush()
	defer so.Flush()
	return callVerb(args, so, se, red)
}

func callVerb(args []string, stdout, stderr io.Writer, red *redact.Redactor) int {
	var hf hostFlags
	fs := flagSet("call", callHelp, stderr)
	hf.addRun(fs)
	asOwner := fs.Bool("as-owner", false, "call as the session owner: DIR must declare [session] owner = true, and its private_tools are callable (operator denials still win)")
	idemKey := fs.String("idempotency-key", "", "record the result under `KEY` (one tool only): a retry, even after a restart, gets the recorded result; the same key with other input fails")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(stderr, "octet-host call: want DIR and at least one TOOL")
		return exitStartup
	}
	dir := fs.Arg(0)
	calls, err := parseToolCalls(fs.Args()[1:])
	if err != nil {
		fmt.Fprintln(stderr, "octet-host call:", err)
		return exitStartup
	}
	if *idemKey != "" && len(calls) != 1 {
		fmt.Fprintln(stderr, "octet-host call: --idempotency-key applies to exactly one TOOL")
		return exitStartup
	}
	if _, err := os.Lstat(filepath.Join(dir, manifest.FileName)); err != nil {
		fmt.Fprintf(stderr, "octet-host call: %s has no %s\n", dir, manifest.FileName)
		return exitStartup
	}
	sel, err := hf.selectExtensions([]string{dir}, false)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host call:", err)
		return exitStartup
	}
	abs, _ := filepath.Abs(dir)
	var entry *discovery.Entry
	for _, e := range sel.result.Entries {
		if e.Dir == abs {
			entry = e
		}
	}
	if entry == nil || !entry.Valid() {
		for _, d := range sel.result.Diagnostics {
			fmt.Fprintln(stderr, d.String())
		}
		fmt.Fprintf(stderr, "octet-host call: %s is not a valid extension\n", dir)
		return exitStartup
	}
	if d := sel.policy.Admit(entry); d.State != admission.Admitted {
		fmt.Fprintf(stderr, "octet-host call: %s not started: %s: %s\n", entry.Name, d.State, d.Reason)
		return exitStartup
	}
	pr, err := stdinAsker(hf.ask, callStdin, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host call:", err)
		return exitStartup
	}
	if pr != nil { // questions on stderr, answers from stdin (which call reads for nothing else)
		lines := make(chan consoleLine)
		go readConsole(callStdin, lines)
		go pr.feed(lines)
		defer pr.close()
		hf.asker = pr
	}
	rt, err := hf.newRuntime(sel, stderr, nil, red)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host call:", err)
		return exitStartup
	}
	// Faults inside the extension are reported once the runtime is closed: the extension
	// writes its traceback to stderr before it answers, but stderr is another pipe, read
	// by another goroutine, so only a process that has ended has surely been read to the
	// end.
	var ext *host.Extension
	var faults []error
	defer func() {
		closeRuntime(rt, hf.stateDir, stderr)
		for _, err := range faults {
			reportExtensionFault(stderr, ext, err)
		}
	}()
	if _, err := rt.Start(context.Background(), []*discovery.Entry{entry}, []string{entry.Name}); err != nil {
		fmt.Fprintln(stderr, "octet-host call:", err)
		return exitStartup
	}
	ext = rt.Extension(entry.Name)
	sess, err := rt.BeginSession()
	if err != nil {
		fmt.Fprintln(stderr, "octet-host call:", err)
		return exitStartup
	}
	turn := sess.TurnStarted()
	code := exitOK
	enc := json.NewEncoder(stdout)
	// SIGINT/SIGTERM cancel the call in progress ($/cancelRequest) and skip the rest; the
	// deferred close still shuts the extension down within bounds.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *idemKey != "" {
		ctx = host.WithIdempotencyKey(ctx, *idemKey)
	}
	for _, c := range calls {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "octet-host call: interrupted; %s not called\n", c.name)
			code = exitFailed
			continue
		}
		var raw json.RawMessage
		if *asOwner {
			raw, err = sess.CallOwnerTool(ctx, turn, c.name, c.args)
		} else {
			raw, err = sess.CallTool(ctx, ext, turn, c.name, c.args)
		}
		if err != nil {
			code = exitFailed
			reason := any(err)
			desc := unknownToolError(err, c.name, ext)
			if desc != nil {
				reason = desc["message"] // with the tools it does serve and the nearest
			} else {
				desc = describeError(err)
			}
			line := map[string]any{"tool": c.name, "error": desc}
			_ = enc.Encode(line)
			fmt.Fprintf(stderr, "octet-host call: %s failed: %v\n", c.name, reason)
			faults = append(faults, err)
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, raw); err != nil {
			compact.Reset()
			compact.Write(raw)
		}
		fmt.Fprintln(stdout, compact.String())
		var res struct {
			IsError bool `json:"is_error"`
		}
		if json.Unmarshal(raw, &res) == nil && res.IsError {
			code = exitFailed
			fmt.Fprintf(stderr, "octet-host call: %s returned is_error\n", c.name)
		}
	}
	outcome := "completed"
	if code != exitOK {
		outcome = "failed"
	}
	sess.TurnSettled(turn, outcome)
	sess.End("completed")
	return code
}

// describeError turns a call failure into the JSON error object printed on stdout.
func describeError(err error) map[string]any {
	var we *jsonrpc.Error
	var te *host.TimeoutError
	var tr *host.TransportError
	var ue *host.UnavailableError
	var ut *host.UnknownToolError
	var nr *host.NotRegisteredError
	var re *host.ResultError
	var ae *host.ArgumentsError
	var hb *host.HookBlockedError
	var he *host.HookError
	var ic *host.IdempotencyConflictError
	var ib *host.IdempotencyBusyError
	var na *host.ToolNotAllowedError
	switch {
	case errors.As(err, &ic):
		return map[string]any{"kind": "idempotency_conflict", "message": err.Error(), "key": ic.Key}
	case errors.As(err, &ib):
		return map[string]any{"kind": "idempotency_in_progress", "message": err.Error(), "key": ib.Key}
	case errors.As(err, &na):
		return map[string]any{"kind": "tool_not_allowed", "message": err.Error(), "extension": na.Extension, "tool": na.Tool, "reason": na.Reason}
	case errors.As(err, &hb):
		return map[string]any{"kind": "hook_blocked", "message": err.Error(), "extension": hb.Extension, "hook": hb.Hook}
	case errors.As(err, &he):
		if he.Owner {
			return map[string]any{"kind": "owner_hook_failed", "message": err.Error(), "extension": he.Extension, "hook": he.Hook, "cause": he.Kind()}
		}
		return map[string]any{"kind": "hook_failed", "message": err.Error(), "extension": he.Extension, "hook": he.Hook}
	case errors.As(err, &re):
		return map[string]any{"kind": "result_refused", "message": err.Error(), "schema": re.Schema, "pointer": re.Pointer, "rule": re.Rule}
	case errors.As(err, &ae):
		return map[string]any{"kind": "arguments_refused", "message": err.Error(), "pointer": ae.Pointer, "rule": ae.Keyword}
	case errors.As(err, &nr):
		return map[string]any{"kind": "not_registered", "message": err.Error()}
	case errors.As(err, &ut):
		return unknownTool(ut.Tool, ut.Catalog, nil)
	case errors.As(err, &we):
		out := map[string]any{"kind": "rpc", "code": we.Code, "message": we.Message}
		if len(we.Data) > 0 {
			out["data"] = json.RawMessage(we.Data)
		}
		return out
	case errors.As(err, &te):
		return map[string]any{"kind": "timeout", "message": err.Error()}
	case errors.As(err, &tr):
		return map[string]any{"kind": "transport", "message": err.Error()}
	case errors.As(err, &ue):
		return map[string]any{"kind": "unavailable", "message": err.Error()}
	case errors.Is(err, context.Canceled):
		// SIGINT, SIGTERM or the run console's cancel cancelled the call: the host sent $/cancelRequest and stopped
		// waiting. Not a failure of the extension, so not "other".
		return map[string]any{"kind": "cancelled", "message": "the call was cancelled (an interrupt, a shutdown or the console's cancel); the extension was sent $/cancelRequest"}
	}
	return map[string]any{"kind": "other", "message": err.Error()}
}
