// Package octettest runs an octet extension against a scripted in-memory host
// inside `go test`: the loopback transport (Start) serves the Extension on
// goroutines over io.Pipe, the process transport (StartProcess) drives a real child
// process over its stdin/stdout. Both record every frame and answer every reverse
// service deterministically from a Script: confirmations, input, secrets, policy,
// artifacts (verifying size and SHA-256), dynamic catalogs, child agents and KV.
//
// Files: host.go (starting, calling, frames), services.go (the reverse services),
// kv.go (the in-memory KV store).
package octettest
