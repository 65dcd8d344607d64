// Package reference assembles the reference host: the host core (package host) wired to the
// services router (host/services), the SQLite state store (host/store), an optional script
// (host/script) and per-extension frame recording (host/recording). octet-host, the
// services integration tests and the benchmarks all start extensions through it, so they
// run the very host the CLI runs.
//
// Open builds it, StartDir starts an extension directory, BeginSession opens the session
// whose turns and tool calls send the lifecycle notifications, and Close ends it (see
// Example). Store, Router and the embedded *host.Host give everything else.
//
// Files: reference.go (Options, Open, Close), taps.go (trace and recording), start.go
// (starting extension directories), session.go (lifecycle notifications of one session).
package reference
