// Package jsonrpc is the symmetric JSON-RPC 2.0 transport shared by the Go extension
// SDK and the reference host: one compact JSON object per line over any reader and
// writer pair, requests in both directions, responses in any order.
//
// The design follows docs/design/protocol.md §1 exactly. The reader goroutine only
// decodes and dispatches: requests run on their own goroutines (at most
// Options.MaxInFlight at once; the next is answered overloaded at once), so a handler
// may Call the peer and wait while the reader keeps delivering responses. One writer
// goroutine owns the output and writes whole frames. A frame that is too long, not
// JSON or not an object is a protocol error: the connection stops reading, answers a
// final error frame, and every pending Call fails with ErrTransport.
//
// Files, one concern each: id.go (request ids), errors.go (the error type and
// sentinels), message.go (strict envelope decoding and encoding), scan.go (object
// splitting and excerpts), frame.go (line reading), reader.go (the reader and
// protocol errors), writer.go (the single writer), conn.go (the connection and
// Call), serve.go (serving requests and cancellation), mux.go (method routing).
package jsonrpc
