package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/admission"
	"github.com/octet-kit/octet/host/discovery"
	"github.com/octet-kit/octet/host/redact"
	"github.com/octet-kit/octet/host/reference"
)

const runHelp = `
Usage: octet-host run [flags] [DIR]...

Discovers extensions (global root, trusted project root, --extension-dir roots, then each
DIR), starts every admitted one at once, supervises them (restart with backoff, parking)
and reads console commands from stdin until quit, EOF, SIGINT or SIGTERM; then shuts
everything down within bounds.

A DIR named on the command line is enabled and trusted for this invocation (like 'call');
extensions found under roots need enabled_extensions / --enable-extension and a trust
grant (config, OCTET_TRUSTED_EXTENSIONS, --trust-extension) or --full-access.

Console commands:
  call TOOL [JSON]   call a tool from the all-extensions catalog; prints one JSON line
                     (before_tool_call and after_tool_call hooks applied: block, replace)
  prompt TEXT        the prompt a model would get, every before_prompt hook applied
  reload NAME        start a candidate, cut over when it is ready (old keeps serving on failure)
  configure [--dry-run] NAME JSON   deliver NAME's settings without a restart (checked first;
                     a refusal keeps the settings in force)
  status             show every extension's state, generation, pid, pending calls
  tools [NAME]       show the catalog, or one tool's definition and schemas as JSON
  logs NAME          show the last stderr lines of NAME's current process
  cancel             cancel every command still running ($/cancelRequest for calls)
  command EXT NAME [ARG]...   command/execute on extension EXT
  hook EXT HOOK [JSON]        hook/run with the JSON payload (default {})
  context EXT [PROMPT]        context/collect
  collect EXT SURFACE         status/collect for status, header or footer
  questions          list the confirmations and input requests a host that stopped
                     (killed, crashed) left unanswered on this state directory, as JSON
  answer ID TEXT     answer one of them: yes or no, or the value (one of its options
                     unless it allows free text); the first answer wins
  quit               wait for the commands still running, shut down and exit

Commands run concurrently: a call that takes long (or hangs until its --timeout) does not
hold up the next line; each prints its JSON line when it finishes, so results can come
back in another order than the lines were typed. EOF and quit wait for running commands;
'cancel' or SIGINT stops them. Progress, notifications, confirmations, input requests and
presentation snapshots are printed as they arrive, each line prefixed with [extension].
A confirmation or input request the --script does not answer is asked on the console when
stdin is a terminal (--ask auto) or always (--ask stdin): the next line typed is the
answer, not a command.

Exit codes: 0 clean shutdown, 2 a usage error or startup stopped: a required extension
(--require, or required_extensions in the config) is missing, disabled, untrusted or failed,
or two extensions declare [session] owner = true; whatever had started was stopped in
reverse order of start.

Examples:
  octet-host run examples/go/hello-world
  octet-host run --enable-extension git-tools --trust-extension git-tools
  echo 'call hello_world {"name":"Ada"}' | octet-host run --require hello-world ./hello-world
`

func init() {
	register("run", verb{Summary: "start and supervise extensions with a line console", Run: runRun})
}

func runRun(args []string, stdout, stderr io.Writer) int {
	return runConsole(args, os.Stdin, stdout, stderr)
}

func runConsole(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	// Everything the console prints passes the host's redactor (results, errors, `logs`,
	// status lines, start failures with their stderr tails, the trace).
	red := redact.New()
	so, se := redact.NewWriter(red, stdout), redact.NewWriter(red, stderr)
	defer se.Flush()
	defer so.Flush()
	return runConsoleRedacted(args, stdin, so, se, red)
}

func runConsoleRedacted(args []string, stdin io.Reader, stdout, stderr io.Writer, red *redact.Redactor) int {
	var hf hostFlags
	fs := flagSet("run", runHelp, stderr)
	hf.addRun(fs)
	hf.addDiscovery(fs)
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	sel, err := hf.selectExtensions(fs.Args(), true)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host run:", err)
		return exitStartup
	}
	for _, d := range sel.result.Diagnostics {
		fmt.Fprintln(stderr, d.String())
	}
	var admitted []*discovery.Entry
	for _, e := range sel.result.Entries {
		d := sel.policy.Admit(e)
		if d.State == admission.Admitted {
			admitted = append(admitted, e)
		} else {
			fmt.Fprintf(stdout, "[%s] not started: %s: %s\n", e.Name, d.State, d.Reason)
		}
	}
	out := reference.SyncWriter(stdout)
	// Questions the script leaves open go to the console and take the next line typed.
	pr, err := stdinAsker(hf.ask, stdin, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host run:", err)
		return exitStartup
	}
	if pr != nil {
		hf.asker = pr
	}
	rt, err := hf.newRuntime(sel, stderr, out, red)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host run:", err)
		return exitStartup
	}
	defer closeRuntime(rt, hf.stateDir, stderr)
	// A signal is noticed at any moment, during startup and while a command runs: it
	// cancels ctx, so a pending handshake or call is cancelled (on the wire) and returns at
	// once, and the bounded shutdown follows (closeRuntime).
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-ctx.Done():
		}
	}()
	required := requiredNames(sel, hf.required)
	if err := checkRequired(sel, required); err != nil {
		fmt.Fprintln(stderr, "octet-host run:", err)
		return exitStartup
	}
	failures, err := rt.Start(ctx, admitted, required)
	if ctx.Err() != nil {
		fmt.Fprintln(out, "shutting down (signal)")
		return exitOK
	}
	for _, f := range failures {
		fmt.Fprintf(out, "[%s] failed to start: %v\n", f.Name, f.Err)
	}
	if err != nil {
		fmt.Fprintln(stderr, "octet-host run:", err)
		return exitStartup
	}
	if rep := rt.Host.Swept(); rep.Hosts+rep.Processes+rep.Scratch > 0 {
		fmt.Fprintln(stderr, "octet-host:", rep)
	}
	// `octet-host configure` reaches this host's extensions through its control socket.
	ctl, err := listenControl(hf.stateDir, rt.Host, func(name string) (map[string]any, error) {
		s, err := hf.selectExtensions(fs.Args(), true)
		if err != nil {
			return nil, err
		}
		return s.settings[name], nil
	})
	if err != nil {
		fmt.Fprintln(stderr, "octet-host run: octet-host configure cannot reach this host:", err)
	} else {
		defer ctl.Close()
	}
	printStatus(out, rt.Host)
	sess, err := rt.BeginSession()
	if err != nil {
		fmt.Fprintln(stderr, "octet-host run:", err)
		return exitStartup
	}

	lines := make(chan consoleLine)
	go readConsole(stdin, lines)
	return serveConsole(ctx, lines, rt.Host, sess, out, pr)
}

// commandCancelWait bounds the wait for a cancelled console command before shutdown.
const commandCancelWait = 2 * time.Second

func interrupted(out io.Writer, sess *reference.Session) int {
	fmt.Fprintln(out, "shutting down (signal)")
	sess.End("interrupted")
	return exitOK
}

// console executes one console line; it returns true on quit.
func console(ctx context.Context, line string, h *host.Host, sess *reference.Session, out io.Writer) bool {
	verb, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch verb {
	case "":
	case "quit", "exit":
		return true
	case "status":
		printStatus(out, h)
	case "command", "hook", "context", "collect":
		consoleTyped(ctx, verb, rest, h, out)
	case "prompt":
		// The prompt a model would get: every before_prompt hook applied (block, replace).
		p, err := h.BeforePrompt(ctx, rest)
		if err != nil {
			b, _ := json.Marshal(map[string]any{"prompt": rest, "error": describeError(err)})
			fmt.Fprintln(out, string(b))
			break
		}
		b, _ := json.Marshal(map[string]any{"prompt": p})
		fmt.Fprintln(out, string(b))
	case "configure":
		consoleConfigure(ctx, rest, h, out)
	case "questions":
		consoleQuestions(ctx, sess, out)
	case "answer":
		consoleAnswer(ctx, rest, sess, out)
	case "logs":
		e := h.Extension(rest)
		if e == nil {
			fmt.Fprintf(out, "logs: %s\n", noExtension(h, rest))
			break
		}
		for _, l := range e.StderrTail() {
			fmt.Fprintf(out, "[%s] %s\n", rest, l)
		}
	case "tools":
		found := false
		for _, t := range h.Catalog().Tools {
			if rest == "" {
				fmt.Fprintf(out, "%s\t%s\t%s\n", t.Tool.Name, t.Extension, t.Tool.Description)
				continue
			}
			if t.Tool.Name == rest {
				// One tool's definition as the host holds it: its parameters and output
				// schemas (derived or hand-written), indented for reading.
				b, _ := json.MarshalIndent(t.Tool, "", "  ")
				fmt.Fprintf(out, "%s\n", b)
				found = true
			}
		}
		if rest != "" && !found {
			fmt.Fprintf(out, "tools: no tool %q\n", rest)
		}
	case "reload":
		e := h.Extension(rest)
		if e == nil {
			fmt.Fprintf(out, "reload: %s\n", noExtension(h, rest))
			break
		}
		if err := e.Reload(ctx); err != nil {
			fmt.Fprintf(out, "reload: %v\n", err)
			break
		}
		fmt.Fprintf(out, "reloaded %s: generation %d\n", rest, e.Status().Generation)
	case "call":
		tool, args, _ := strings.Cut(rest, " ")
		args = strings.TrimSpace(args)
		if args == "" {
			args = "{}"
		}
		if !json.Valid([]byte(args)) {
			fmt.Fprintf(out, "call: arguments are not valid JSON: %s\n", args)
			break
		}
		e, err := h.ResolveTool(tool)
		var raw json.RawMessage
		if err == nil {
			turn := sess.TurnStarted()
			raw, err = sess.CallTool(ctx, e, turn, tool, json.RawMessage(args))
			outcome := "completed"
			if err != nil {
				outcome = "failed"
			}
			sess.TurnSettled(turn, outcome)
		}
		if err != nil {
			desc := unknownToolError(err, tool, e)
			if desc == nil {
				desc = describeError(err)
			}
			b, _ := json.Marshal(map[string]any{"tool": tool, "error": desc})
			fmt.Fprintln(out, string(b))
			break
		}
		var buf strings.Builder
		buf.Write(raw)
		fmt.Fprintln(out, strings.TrimSpace(buf.String()))
	default:
		fmt.Fprintln(out, "commands: call TOOL [JSON] | prompt TEXT | command EXT NAME [ARG]... | hook EXT HOOK [JSON] | context EXT [PROMPT] | collect EXT SURFACE | reload NAME | configure [--dry-run] NAME JSON | status | tools | logs NAME | questions | answer ID TEXT | cancel | quit")
	}
	return false
}

func printStatus(out io.Writer, h *host.Host) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSTATE\tGEN\tPID\tAPI\tPENDING\tRESTARTS\tMANIFEST\tBUNDLE\tLAST ERROR")
	for _, s := range h.Status() {
		last := s.LastError
		if i := strings.IndexByte(last, '\n'); i >= 0 {
			last = last[:i] + " …"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%d\t%d\t%s\t%s\t%s\n", s.Name, s.State, s.Generation, s.PID, s.APIVersion, s.Pending, s.Restarts, short(s.ManifestDigest), short(s.BundleDigest), last)
	}
	tw.Flush()
	for _, s := range h.Status() {
		if s.Sandbox != "" {
			fmt.Fprintf(out, "%s: sandbox %s; asks for %s\n", s.Name, s.Sandbox, s.Permissions)
		}
	}
}

// short is a digest's first 12 hex digits for the status table ("-" for none); the JSON
// status carries it whole.
func short(digest string) string {
	if digest == "" {
		return "-"
	}
	return digest[:min(12, len(digest))]
}

// consoleTyped runs the typed console commands against one extension and prints the
// result (or the error) as one JSON line.
func consoleTyped(ctx context.Context, verb, rest string, h *host.Host, out io.Writer) {
	fields := strings.Fields(rest)
	if len(fields) < 1 {
		fmt.Fprintf(out, "%s: name an extension\n", verb)
		return
	}
	e := h.Extension(fields[0])
	if e == nil {
		fmt.Fprintf(out, "%s: %s\n", verb, noExtension(h, fields[0]))
		return
	}
	var raw json.RawMessage
	var err error
	switch verb {
	case "command":
		if len(fields) < 2 {
			fmt.Fprintln(out, "command: want EXT NAME [ARG]...")
			return
		}
		raw, err = e.ExecuteCommand(ctx, fields[1], fields[2:])
	case "hook":
		if len(fields) < 2 {
			fmt.Fprintln(out, "hook: want EXT HOOK [JSON]")
			return
		}
		payload := json.RawMessage("{}")
		if i := strings.Index(rest, "{"); i >= 0 {
			payload = json.RawMessage(rest[i:])
		}
		if !json.Valid(payload) {
			fmt.Fprintf(out, "hook: payload is not valid JSON: %s\n", payload)
			return
		}
		raw, err = e.RunHook(ctx, fields[1], payload)
	case "context":
		params := map[string]any{}
		if len(fields) > 1 {
			params["prompt"] = strings.Join(fields[1:], " ")
		}
		raw, err = e.CollectContext(ctx, params)
	case "collect":
		if len(fields) != 2 {
			fmt.Fprintln(out, "collect: want EXT SURFACE")
			return
		}
		raw, err = e.CollectStatus(ctx, fields[1])
	}
	if err != nil {
		b, _ := json.Marshal(map[string]any{verb: fields[0], "error": describeError(err)})
		fmt.Fprintln(out, string(b))
		return
	}
	fmt.Fprintln(out, strings.TrimSpace(string(raw)))
}
