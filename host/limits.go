package host

import "time"

// The wire contract's limits (docs/design/wire.md §8) the host core uses. They mirror the
// schema's limits; the values must stay equal to schema/limits.schema.json.
const (
	MaxMessageBytes     = 1 << 20
	MaxInFlight         = 64
	RequestTimeout      = 30 * time.Second
	ShutdownDrain       = 5 * time.Second
	StartTimeout        = 10 * time.Second
	BackoffBase         = 250 * time.Millisecond
	BackoffCap          = 30 * time.Second
	ParkAfterFailures   = 8
	ReadyReset          = 30 * time.Second
	MaxCatalogTools     = 256
	OctetVersion        = "0.8.0"
	shutdownRequestWait = 2 * time.Second // how long the shutdown request may take to be acknowledged
	exitWait            = time.Second     // how long a process may take to exit after stdin closes
	termGrace           = 2 * time.Second // SIGTERM to SIGKILL
)

// JSON-RPC codes the host core produces or interprets.
const (
	codeInvalidParams     = -32602
	codeInternal          = -32603
	codeShuttingDown      = -32003
	codeServiceUnavailabe = -32002
	codeMethodNotFound    = -32601
)
