// Package host is the reference host's core: it starts discovered and admitted extensions,
// runs the initialize handshake, routes calls both ways, keeps the all-extensions tool
// catalog, supervises processes (restart with backoff, parking, reload) and shuts them
// down within bounds.
//
// Files, one concern each: options.go (configuration, clock), errors.go (error types),
// host.go (the set of extensions, startup with required extensions, shutdown),
// extension.go (one supervised extension and its calls), generation.go (one process
// generation: process, connection, reverse requests, active parents), handshake.go
// (initialize params and response checks), supervise.go (restart and backoff),
// reload.go (candidate-first reload and cut-over), catalog.go (the atomic tool catalog),
// stop.go (bounded shutdown of a generation).
package host
