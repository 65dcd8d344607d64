package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/octet-kit/octet/host/replay"
	"github.com/octet-kit/octet/host/store"
)

const replayHelp = `
Usage: octet-host replay [flags] SESSION [--against DIR]

Plays the host->extension frames of a recorded session (call --record, run --record; list
them with 'octet-host inspect') against the extension in DIR — typically a new build of
the one recorded — and prints a diff of what it sent back: per host request, each frame
only recorded (-) or only replayed (+), and under a changed frame the JSON pointers whose
values changed. The extension's requests (kv, secrets, confirmations, ...) are answered
with the host's recorded answers, matched by method and order; nothing is re-asked.

What the comparison ignores is a fixed set of rules, not a list of exceptions: the ids of
the extension's own requests, members named like times (time, at, elapsed, duration,
*_at, *_ms, *_time, *_seconds, *_timestamp), generated identifiers (UUIDs, runs of 16 or
more hex digits with a letter), process ids (pid, *_pid) and the two runs' extension directories. See
docs/host.md "Replay". A recording that spans a restart is replayed up to the restart.

Without --against, DIR is the directory the session was recorded from.

Exit codes: 0 no difference; 1 something differed (or the extension ended early);
2 usage error, unknown session, or the extension could not start.

Examples:
  octet-host call --record examples/go/hello-world hello_world '{"name":"Ada"}'
  octet-host replay session-0123456789abcdef-hello-world --against ./hello-world-v2
  octet-host replay --json --state ./state session-0123456789abcdef-hello-world
`

func init() {
	register("replay", verb{Summary: "replay a recorded session against an extension and diff what came back", Run: runReplay})
}

func runReplay(args []string, stdout, stderr io.Writer) int {
	var hf hostFlags
	fs := flagSet("replay", replayHelp, stderr)
	hf.addState(fs)
	against := fs.String("against", "", "extension `DIR` to replay against (default: the recorded one)")
	fs.StringVar(&hf.workspace, "workspace", "", "workspace root: the extension's cwd (default: the current directory)")
	fs.Var(&hf.passEnv, "pass-env", "grant the host variable `NAME` to the extension (repeatable)")
	fs.DurationVar(&hf.timeout, "timeout", 30*time.Second, "bound on each wait for the extension")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "octet-host replay: want exactly one SESSION")
		return exitStartup
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := store.Open(ctx, hf.stateDir)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host replay:", err)
		return exitStartup
	}
	defer st.Close()
	frames, found, err := st.Frames(ctx, fs.Arg(0))
	if err != nil || !found {
		if err == nil {
			err = fmt.Errorf("no recorded session %q (list them with `octet-host inspect`)", fs.Arg(0))
		}
		fmt.Fprintln(stderr, "octet-host replay:", err)
		return exitStartup
	}
	recorded := make([]replay.Frame, len(frames))
	for i, f := range frames {
		recorded[i] = replay.Frame{Direction: f.Direction, Frame: f.Frame}
	}
	dir := *against
	if dir == "" {
		if dir = replay.RecordedDir(recorded); dir == "" {
			fmt.Fprintln(stderr, "octet-host replay: the recording names no extension directory; give --against DIR")
			return exitStartup
		}
	}
	dir, _ = filepath.Abs(dir)
	res, err := replay.Run(ctx, recorded, replay.Options{Dir: dir, StateDir: hf.stateDir, Workspace: hf.workspace, PassEnv: hf.passEnv, Timeout: hf.timeout})
	if err != nil {
		fmt.Fprintln(stderr, "octet-host replay:", err)
		return exitStartup
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(map[string]any{"session": fs.Arg(0), "against": dir, "differences": res.Report.Differences(), "report": res.Report})
	} else {
		fmt.Fprintf(stdout, "replay %s against %s\n", fs.Arg(0), dir)
		_ = res.Report.WriteText(stdout)
	}
	if res.Report.Differences() > 0 {
		return exitFailed
	}
	return exitOK
}
