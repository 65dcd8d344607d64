// Package wire holds the few wire constants the Go SDK needs until the generated
// package sdk-go/protocol provides them; this is the one file to replace with
// protocol.* references once that package exists.
package wire

// Limits from docs/design/wire.md §8.
const (
	MaxMessageBytes    = 1 << 20
	MaxInFlight        = 64
	MaxPendingRequests = 64
	MaxIDBytes         = 256
	ShutdownDrainMS    = 5000
	MaxSafeInteger     = 1<<53 - 1
)

// Error codes from the error registry in docs/design/wire.md §1.
const (
	CodeParseError            = -32700
	CodeInvalidRequest        = -32600
	CodeMethodNotFound        = -32601
	CodeInvalidParams         = -32602
	CodeInternalError         = -32603
	CodeRequestCancelled      = -32800
	CodeOverloaded            = -32001
	CodeServiceUnavailable    = -32002
	CodeShuttingDown          = -32003
	CodeSecretUnavailable     = -32004
	CodeKVConflict            = -32005
	CodeUnsupportedAPIVersion = -32006
)

// CancelMethod is the cancellation notification, sent in either direction.
const CancelMethod = "$/cancelRequest"
