package main

import (
	"context"
	"fmt"
	"io"

	"github.com/octet-kit/octet/host/inspect"
	"github.com/octet-kit/octet/host/store"
)

const inspectHelp = `
Usage: octet-host inspect [--state DIR] [--json] [--verbose] [SESSION]

Without SESSION, lists the recorded sessions in the state store. With SESSION, prints that
session's frame exchange (secrets were redacted when it was recorded) in aligned columns:
time, direction, kind, method, id, duration, error; --verbose adds each frame on a line of
its own. --json prints the listing as a JSON array and a session as JSON lines (one frame
per line: seq, at, direction, kind, id, method, duration_ms, error, frame). Sessions are
recorded by 'call --record' and 'run --record'; 'octet-host replay' plays one again.

Exit codes: 0 printed, 1 unknown session, 2 usage or store error.

Examples:
  octet-host inspect
  octet-host inspect session-0123456789abcdef-hello-world
  octet-host inspect --json --state ./state session-0123456789abcdef-hello-world
`

func init() {
	register("inspect", verb{Summary: "list recorded sessions or show one session's frames", Run: runInspect})
}

func runInspect(args []string, stdout, stderr io.Writer) int {
	var hf hostFlags
	fs := flagSet("inspect", inspectHelp, stderr)
	hf.addState(fs)
	asJSON := fs.Bool("json", false, "print JSON (a session: one frame per line)")
	verbose := fs.Bool("verbose", false, "print whole frames")
	if code := parse(fs, args, stdout); code >= 0 {
		return code
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(stderr, "octet-host inspect: at most one SESSION")
		return exitStartup
	}
	ctx := context.Background()
	st, err := store.Open(ctx, hf.stateDir)
	if err != nil {
		fmt.Fprintln(stderr, "octet-host inspect:", err)
		return exitStartup
	}
	defer st.Close()
	if fs.NArg() == 0 {
		sessions, err := inspect.Sessions(ctx, st)
		if err == nil {
			err = inspect.WriteSessions(stdout, sessions, *asJSON)
		}
		if err != nil {
			fmt.Fprintln(stderr, "octet-host inspect:", err)
			return exitStartup
		}
		return exitOK
	}
	entries, err := inspect.Exchange(ctx, st, fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "octet-host inspect:", err)
		return exitFailed
	}
	if err := inspect.WriteExchange(stdout, entries, *asJSON, *verbose); err != nil {
		fmt.Fprintln(stderr, "octet-host inspect:", err)
		return exitStartup
	}
	return exitOK
}
