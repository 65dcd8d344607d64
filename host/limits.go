package host

import "time"

// The wire contract's limits (docs/design/wire.md §8) come straight from sdk-go/protocol,
// generated from schema/limits.schema.json, so the schema stays their one source. Only
// what the schema does not name is defined here.
const (
	// OctetVersion is the octet version this host implements; requires_octet must equal it.
	OctetVersion = "0.8.0"
	termGrace    = 2 * time.Second // SIGTERM to SIGKILL (and the shutdown request's bound)
	// exitStatusWait bounds how long a failure report waits, once the connection has
	// ended, for the process to be reaped so it can name the exit status. It is only
	// reached by a process that closed stdout and kept running; a crashed one is reaped
	// at once, but that can take well over a few hundred ms on a loaded machine.
	exitStatusWait = 2 * time.Second
	// handlerDrain bounds how long an ended generation waits for its connection's
	// handlers (the extension's requests and notifications) to return.
	handlerDrain = 2 * time.Second
)
