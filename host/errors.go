package host

import (
	"errors"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host/process"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// StartError says why an extension did not become ready (command not found, exited before
// the handshake, non-frame output, start timeout, handshake refused). It is the
// process package's type so the CLI can match on one Kind set.
type StartError = process.StartError

// ErrTransport matches every failure of the connection itself (crash, protocol error).
var ErrTransport = jsonrpc.ErrTransport

// TransportError is a call that failed because the process or its connection died. It
// wraps jsonrpc.ErrTransport and says what happened to the process.
type TransportError struct {
	Extension string
	Reason    string   // "exited with code 3", "protocol error: invalid JSON at line 4: …"
	Stderr    []string // last stderr lines, for diagnosis
}

func (e *TransportError) Error() string {
	msg := fmt.Sprintf("extension %s: transport failed: %s", e.Extension, e.Reason)
	if len(e.Stderr) > 0 {
		msg += "; last stderr: " + strings.Join(e.Stderr[max(0, len(e.Stderr)-3):], " | ")
	}
	return msg
}

// Unwrap lets errors.Is(err, ErrTransport) match.
func (e *TransportError) Unwrap() error { return jsonrpc.ErrTransport }

// TimeoutError is a call that outlived its timeout; the host sent $/cancelRequest.
type TimeoutError struct {
	Extension, Method string
	After             string
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("extension %s: %s timed out after %s and was cancelled", e.Extension, e.Method, e.After)
}

// UnavailableError is a call to an extension that is not ready (parked, stopped, not
// admitted, shutting down).
type UnavailableError struct {
	Extension, State, Reason string
}

func (e *UnavailableError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("extension %s is %s", e.Extension, e.State)
	}
	return fmt.Sprintf("extension %s is %s: %s", e.Extension, e.State, e.Reason)
}

// IsPermanent reports whether err is a deterministic refusal that a restart cannot fix.
func IsPermanent(err error) bool {
	var se *StartError
	return errors.As(err, &se) && (se.Kind == process.KindRefused || se.Kind == process.KindNotFound || se.Kind == process.KindNotExecutable || se.Kind == kindManifest || se.Kind == kindSettings)
}

// kindManifest is a restart or reload that found the manifest invalid or changed incompatibly.
const kindManifest process.Kind = "manifest_invalid"

// UnknownToolError is a call to a tool no ready extension provides.
type UnknownToolError struct {
	Tool    string
	Catalog []string
}

func (e *UnknownToolError) Error() string {
	return fmt.Sprintf("no extension provides tool %q (catalog: %s)", e.Tool, strings.Join(e.Catalog, ", "))
}

// NotRegisteredError is a typed call for a command, hook, surface, context or renderer the
// extension did not register in its handshake; it is refused without a round trip.
type NotRegisteredError struct {
	Extension, What, Name string
}

func (e *NotRegisteredError) Error() string {
	return fmt.Sprintf("extension %s did not register %s %q in its handshake", e.Extension, e.What, e.Name)
}
