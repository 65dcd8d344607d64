package host

import "time"

// The wire contract's limits (docs/design/wire.md §8) the host core uses. They mirror
// sdk-go/protocol (generated from schema/limits.schema.json); host/internal/limitscheck
// fails if they drift. They are not imported so the host core builds on its own.
const (
	MaxMessageBytes   = 1 << 20
	MaxInFlight       = 64
	RequestTimeout    = 30 * time.Second
	ShutdownDrain     = 5 * time.Second
	StartTimeout      = 10 * time.Second
	BackoffBase       = 250 * time.Millisecond
	BackoffCap        = 30 * time.Second
	ParkAfterFailures = 8
	ReadyReset        = 30 * time.Second
	MaxCatalogTools   = 256
	// OctetVersion is the octet version this host implements; requires_octet must equal it.
	OctetVersion = "0.8.0"
	termGrace    = 2 * time.Second // SIGTERM to SIGKILL (and the shutdown request's bound)
)

// JSON-RPC codes the host core produces.
const (
	codeMethodNotFound     = -32601
	codeServiceUnavailable = -32002
)
