// Package jsonrpc is the symmetric JSON-RPC 2.0 transport shared by the Go extension
// SDK and the reference host: one compact JSON object per line over any reader and
// writer pair, requests in both directions, responses in any order.
//
// The design follows docs/design/wire.md §1 exactly. The reader only decodes and
// dispatches: an admitted request is served by the goroutine that read it while
// another (an idle server goroutine kept from earlier requests, or a new one)
// continues reading (at most Options.MaxInFlight requests at once;
// the next is answered overloaded at once), so a handler may Call the peer and wait
// while responses keep arriving. Exactly one goroutine writes at a time and always
// whole frames: an idle writer is used directly by the sender, otherwise frames
// queue for the current writer (the reader only ever queues). A frame that is too
// long, not JSON or not an object is a protocol error: the connection stops reading,
// answers a final error frame, and every pending Call fails with ErrTransport.
//
// Notifications are handled one at a time in arrival order on their own goroutine.
// A host bounds that queue (the reader pauses while it is full), paces it, orders
// responses behind it and drains it on Close, counting what it drops (Options, notes.go).
//
// The transport knows nothing of the protocol above it: it owns the codes it answers
// with and the defaults of its limits (codes.go), and cancellation, which JSON-RPC 2.0
// does not define, is a hook the protocol installs (cancel.go). A test in the SDK
// module holds the codes and limits to the schema's and keeps this package from
// importing the protocol package.
//
// It stays a package of the SDK module rather than a module of its own: it needs nothing
// but the standard library and strictjson (which the schema generates next to protocol),
// so a module boundary would spare no importer a dependency, while it would add a version
// to keep in step with the schema, a replace line in every module of the kit and in every
// scaffold, and one more module to publish. The layering is the test's to keep.
//
// Files, one concern each: codes.go (codes and default limits), cancel.go (the
// cancellation hook), id.go (request ids), errors.go (the error type and
// sentinels), message.go (strict envelope decoding and encoding), scan.go (object
// splitting and excerpts), frame.go (line reading), reader.go (the reader and
// protocol errors), writer.go (the single writer), conn.go (the connection and
// Call), serve.go (serving requests and cancellation), notes.go (the notification queue),
// mux.go (method routing).
package jsonrpc
