package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/store"
)

const recoverHelp = `
Usage: octet-host recover [flags] [DIR...]

Replays the sends the host did not live to see settled. The host records each tool call,
command and hook run it delivers to an extension, with its original input, before writing
it, and its final receipt (outcome, timing, digests of input and result, how many progress
events came before the answer) before anyone sees the answer. A send without a final
receipt is one whose host died mid-call (killed, crashed, the machine went down).

recover starts the extensions as run does (the config's enabled ones, and each DIR named,
enabled and trusted for this invocation only), replays each unsettled send's persisted
input to the extension it went to (the same trusted identity), and records the replay as a
new send linked to the original: its receipt is the original's recovery receipt. --send ID
replays the sends named instead (any send, settled or not, e.g. one that timed out).

A send whose input held a brokered secret is never replayed: the store keeps inputs with
secrets redacted, and a replay of the placeholder would be another call. A tool call meets
the catalog check of a new call (operator denials, the session owner's catalog).

Prints one JSON line per send: {"send", "extension", "method", "name", and either
"recovery" (the replay's send id), "outcome", "result" or "error", or "skipped" (why not)}.

Exit codes: 0 nothing to recover, or every replay completed; 1 a replay failed or a send was
skipped; 2 usage error, or the store or an extension could not be opened.

Examples:
  octet-host recover --state ./state ./my-ext
  octet-host recover --send 42 --send 43 ./my-ext
`

func init() {
	register("recover", verb{Summary: "replay the sends a killed host left without a final receipt", Run: runRecover})
}

func runRecover(args []string, stdout, stderr io.Writer) int {
	red := redact.New()
	so, se := redact.NewWriter(red, stdout), redact.NewWriter(red, stderr)
	defer se.Flush()
	defer so.Flush()
	return recoverVerb(args, so, se, red)
}

func recoverVerb(args []string, stdout, stderr io.Writer, red *redact.Redactor) int {
	var hf hostFlags
	fs := flagSet("recover", recoverHelp, stderr)
	hf.addRun(fs)
	hf.addDiscovery(fs)
	var named multi
	fs.Var(&named, "send", "replay the recorded send `ID` (repeatable; default: every send without a final receipt)")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sends, code := pendingSends(ctx, hf.stateDir, named, stderr)
	if code >= 0 {
		return code
	}
	if len(sends) == 0 {
		fmt.Fprintln(stderr, "octet-host recover: nothing to recover: every recorded send has its final receipt")
		return exitOK
	}
	sel, err := hf.selectExtensions(fs.Args(), true)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host recover:", err)
		return exitStartup
	}
	var admitted []*discovery.Entry
	for _, e := range sel.result.Entries {
		if sel.policy.Admit(e).State == admission.Admitted {
			admitted = append(admitted, e)
		}
	}
	rt, err := hf.newRuntime(sel, stderr, nil, red)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host recover:", err)
		return exitStartup
	}
	defer closeRuntime(rt, hf.stateDir, stderr)
	failures, err := rt.Start(ctx, admitted, requiredNames(sel, hf.required))
	for _, f := range failures {
		fmt.Fprintf(stderr, "octet-host recover: %s failed to start: %v\n", f.Name, f.Err)
	}
	if err != nil {
		fmt.Fprintln(stderr, "octet-host recover:", err)
		return exitStartup
	}
	sess, err := rt.BeginSession()
	if err != nil {
		fmt.Fprintln(stderr, "octet-host recover:", err)
		return exitStartup
	}
	defer sess.End("completed")
	code = exitOK
	enc := json.NewEncoder(stdout)
	for _, s := range sends {
		r := rt.Recover(ctx, s)
		line := map[string]any{"send": s.ID, "extension": s.Extension, "method": s.Method, "name": s.Name}
		switch {
		case r.Skipped != "":
			line["skipped"] = r.Skipped
			fmt.Fprintf(stderr, "octet-host recover: send %d (%s %s of %s) not replayed: %s\n", s.ID, s.Method, s.Name, s.Extension, r.Skipped)
			code = exitFailed
		default:
			if r.Replay.ID != 0 {
				line["recovery"] = r.Replay.ID
				line["outcome"] = r.Receipt.Outcome
			}
			if r.Err != nil {
				line["error"] = describeError(r.Err)
				fmt.Fprintf(stderr, "octet-host recover: send %d (%s %s of %s): replay failed: %v\n", s.ID, s.Method, s.Name, s.Extension, r.Err)
				code = exitFailed
			} else {
				var compact bytes.Buffer
				if json.Compact(&compact, r.Result) == nil {
					line["result"] = json.RawMessage(compact.Bytes())
				}
			}
		}
		_ = enc.Encode(line)
	}
	return code
}

// pendingSends is what to replay: the named sends, or every unsettled one. code is -1 to
// go on, or the exit code.
func pendingSends(ctx context.Context, stateDir string, named []string, stderr io.Writer) ([]store.SendRow, int) {
	st, err := store.Open(ctx, stateDir)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host recover:", err)
		return nil, exitStartup
	}
	defer st.Close()
	if len(named) == 0 {
		sends, err := st.Unsettled(ctx)
		if err != nil {
			fmt.Fprintln(stderr, "octet-host recover:", err)
			return nil, exitStartup
		}
		return sends, -1
	}
	var sends []store.SendRow
	for _, n := range named {
		id, err := strconv.ParseInt(n, 10, 64)
		if err != nil || id <= 0 {
			fmt.Fprintf(stderr, "octet-host recover: --send %q is not a send id (a positive integer)\n", n)
			return nil, exitStartup
		}
		s, found, err := st.Send(ctx, id)
		if err != nil || !found {
			if err == nil {
				err = fmt.Errorf("no recorded send %d", id)
			}
			fmt.Fprintln(stderr, "octet-host recover:", err)
			return nil, exitStartup
		}
		sends = append(sends, s)
	}
	return sends, -1
}
