// Package reference assembles the reference host: the host core (package host) wired to the
// services router (host/services), the SQLite state store (host/store), an optional script
// (host/script) and per-extension frame recording (host/recording). octet-host, the
// services integration tests and the benchmarks all start extensions through it, so they
// run the very host the CLI runs.
//
// One extension, one session, a few tool calls:
//
//	sc, _ := script.Parse("answers.toml", []byte(scriptText), "")
//	h, err := reference.Open(ctx, reference.Options{
//		Host:   host.Options{StateDir: stateDir, Workspace: workspace},
//		Script: sc,
//	})
//	if err != nil { ... }
//	defer h.Close()
//	ext, err := h.StartDir(ctx, "examples/go/hello-world")
//	sess, err := h.BeginSession()
//	turn := sess.TurnStarted()
//	raw, err := sess.CallTool(ctx, ext, turn, "hello_world", json.RawMessage(`{"name":"Ada"}`))
//	sess.TurnSettled(turn, "completed")
//	sess.End("completed")
//
// Files: reference.go (Options, Open, Close), taps.go (trace and recording), start.go
// (starting extension directories), session.go (lifecycle notifications of one session).
package reference
