package octet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Run serves the host on the process's stdin/stdout and exits: 0 after shutdown
// or stdin EOF (each drained within its bound), 1 when the connection ended any other
// way (a framing fault such as invalid JSON, a byte order mark or stdin ending inside a
// frame; a broken pipe), as the Python and TypeScript SDKs do. Before serving it moves the
// protocol off fd 1 (see protectStdio), so fmt.Println and child processes write to
// stderr and can never corrupt the stream.
func (e *Extension) Run() {
	in, out, err := protectStdio()
	if err != nil {
		e.log.Warn("could not move the protocol off fd 1; stray stdout will corrupt the stream", "err", err.Error())
		in, out = os.Stdin, os.Stdout
	}
	if err := e.Serve(context.Background(), in, out); err != nil {
		e.log.Error("session ended", "err", err.Error())
		os.Exit(1)
	}
	os.Exit(0)
}

// Serve serves one host session over r and w and returns when it ends: after the
// shutdown acknowledgement is written, after stdin EOF and the bounded drain, or
// when ctx ends (drained the same way). Tests and harnesses call it directly.
// It returns nil for an orderly end and the transport's reason otherwise. An
// Extension serves one session: a second Serve returns an error.
func (e *Extension) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	if !e.served.CompareAndSwap(false, true) {
		return errors.New("octet: Serve called twice; an Extension serves one session")
	}
	// The drain's last resort cancels the handlers still running through this context,
	// the parent of each request's own (see pool.cancelAll).
	work, cancelWork := context.WithCancel(context.Background())
	e.cancelWork = cancelWork
	defer cancelWork()
	e.conn = jsonrpc.NewConn(r, w, jsonrpc.Options{
		Handler:     e.handle,
		BaseContext: work,
		// The pool answers overloaded; the transport bound only catches a host
		// that ignores both (workers + queue + initialize/shutdown).
		MaxInFlight: protocol.MaxInFlight + e.opts.MaxPendingRequests + 2,
		IDPrefix:    "go:",
		OnFrame:     e.opts.OnFrame,
		// The protocol's cancellation: the transport knows none of its own.
		Cancellation: jsonrpc.Cancellation{Method: protocol.MethodCancelRequest},
		Logf:         func(format string, args ...any) { e.log.Warn("transport", "detail", sprintf(format, args...)) },
	})
	close(e.connSet)
	var reason error
	select {
	case <-e.stopped: // shutdown acknowledged: the transport closes after writing it
		<-e.conn.Done()
	case <-e.conn.Done():
		reason = e.conn.Err()
		e.log.Info("input closed; draining", "reason", reason.Error())
		// The same bounded drain; when a shutdown was already admitted this waits
		// for it, and then for its acknowledgement to reach the writer. Every request
		// read before the EOF is admitted first (none can come after it).
		e.finish(e.admitThrough(e.conn.RequestsRead(), e.opts.ShutdownDrain), 0)
		ctx, cancel := context.WithTimeout(context.Background(), answerGrace)
		_ = e.conn.WaitServing(ctx, 0)
		cancel()
	case <-ctx.Done():
		e.finish(e.admitThrough(e.conn.RequestsRead(), e.opts.ShutdownDrain), 0)
	}
	e.conn.Close() // waits for a Close already under way (the acknowledgement's flush)
	if reason != nil && !isPeerClosed(reason) {
		return reason
	}
	return nil
}

func isPeerClosed(err error) bool { return errors.Is(err, jsonrpc.ErrPeerClosed) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
