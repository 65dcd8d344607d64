// Package host is the reference host's core: it starts discovered and admitted extensions,
// runs the initialize handshake, routes calls both ways, keeps the all-extensions tool
// catalog, supervises processes (restart with backoff, parking, reload) and shuts them
// down within bounds.
//
// The wire limits and error codes come from sdk-go/protocol (generated from the schema).
// host/reference wires this core to the services router, the store and a script.
//
// Files, one concern each: options.go (configuration, clock), limits.go (the octet version),
// errors.go (error types), services.go (the reverse-services interface and Caller),
// host.go (the set of extensions, startup with required extensions, shutdown),
// extension.go (one supervised extension and its state), ondemand.go (lazy_resident and
// oneshot), calls.go (typed host->extension calls), generation.go (one process generation:
// start, handshake, watch), request.go (one host request: timeout, cancellation,
// concurrency, error mapping), parents.go (serving reverse requests, active parents),
// handshake.go and schema.go (initialize params and every check of the answer),
// initcheck.go (CheckInitialize, those checks exported),
// catalog.go (the atomic tool catalog), lifecycle.go (lifecycle notifications),
// supervise.go (restart and backoff), reload.go (candidate-first reload and cut-over),
// stop.go (bounded shutdown of a generation), events.go (ordered status events).
package host
