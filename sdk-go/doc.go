// Package octet is the Go SDK for octet extensions: a process that serves tools,
// commands, hooks, context, status and renderers to an octet host over JSON-RPC on
// its stdin/stdout (docs/design/wire.md), with every capability of the Python SDK in
// Go idiom.
//
//	ext := octet.New(octet.Options{})
//	octet.Tool(ext, octet.ToolSpec{Name: "hello_world", Description: "Greet someone"},
//		func(ctx context.Context, args struct{ Name string `json:"name"` }) (octet.Result, error) {
//			return octet.Text("Hello, " + args.Name + "!"), nil
//		})
//	ext.Run()
//
// Handlers receive a context.Context that carries the request: its id
// (RequestID), its resource owner (Owner) and its cancellation (ctx.Done()). The
// reverse services (Progress, Confirm, RequestInput, PublishArtifact, GetSecret,
// EvaluatePolicy, SpawnAgent, KVGet, …) take that ctx and fill parent_request_id
// from it; outside a handler, WithParent names the parent explicitly.
//
// Runtime rules (wire.md §10): the reader only decodes and queues; handlers run on a
// bounded worker pool (API 0.1: one worker) behind an admission queue (64; full =
// overloaded); one writer owns the protocol fd, which Run moves off fd 1 so that
// fmt.Println and child processes write to stderr instead of corrupting the stream.
// Shutdown and stdin EOF drain in-flight work within a bound, then exit 0.
//
// Files: the runtime has the same four layers, and file names, as the Python and TypeScript
// SDKs: registry.go (contribution points: what the author declared), dispatch.go (the
// host-method table), the connection (jsonrpc/: framing, reader, single writer; admission.go
// and pool.go the admission queue and workers) and hostcall.go with services.go (typed
// reverse calls). Around them: extension.go (the Extension and its options), tool.go and
// schema.go (typed tools), content.go (results), negotiate.go (initialize), serve.go (Run
// and Serve), shutdown.go, stdio_*.go (fd protection), call.go (ambient request state),
// progress.go, artifacts.go, catalog.go (dynamic tools), agents.go, presentation.go, kv.go,
// log.go, errors.go.
package octet
