package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Error is a JSON-RPC error object. A handler returning an *Error (possibly wrapped)
// has it sent verbatim; a Call that receives an error response returns one.
// errors.Is(err, target) is true when both are *Error with the same Code, so callers
// compare against the sentinels below.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// NewError builds an error; data is marshalled to JSON (nil means no data). If data
// cannot be marshalled the error carries no data and the message says why.
func NewError(code int64, message string, data any) *Error {
	e := &Error{Code: code, Message: message}
	if data == nil {
		return e
	}
	if raw, ok := data.(json.RawMessage); ok {
		e.Data = raw
		return e
	}
	raw, err := json.Marshal(data)
	if err != nil {
		e.Message += fmt.Sprintf(" (error data could not be encoded: %v)", err)
		return e
	}
	e.Data = raw
	return e
}

// Error formats the error with its code.
func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for the codes this transport answers with (codes.go). Compare with
// errors.Is; build a response with NewError(ErrX.Code, msg, data). The codes services
// answer with (shutting_down, service_unavailable, ...) are the protocol's.
var (
	ErrParse            = &Error{Code: CodeParseError, Message: "parse error"}
	ErrInvalidRequest   = &Error{Code: CodeInvalidRequest, Message: "invalid request"}
	ErrMethodNotFound   = &Error{Code: CodeMethodNotFound, Message: "method not found"}
	ErrInvalidParams    = &Error{Code: CodeInvalidParams, Message: "invalid params"}
	ErrInternal         = &Error{Code: CodeInternalError, Message: "internal error"}
	ErrRequestCancelled = &Error{Code: CodeRequestCancelled, Message: "request cancelled"}
	ErrOverloaded       = &Error{Code: CodeOverloaded, Message: "overloaded"}
)

// ErrTransport is wrapped by every error caused by the connection rather than the
// peer's answer: a broken pipe, the peer's exit (EOF), a closed connection, or a
// protocol error that closed it. errors.Is(err, ErrTransport) tells them apart from
// an *Error the peer sent.
var ErrTransport = errors.New("jsonrpc transport")

// ErrPeerClosed is wrapped (with ErrTransport) by Err when the peer closed its side
// cleanly at a frame boundary: the normal end of a session.
var ErrPeerClosed = errors.New("peer closed")

// transportError wraps ErrTransport with a reason.
func transportError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTransport, fmt.Sprintf(format, args...))
}

// asWireError converts a handler error into the error object to send: an *Error
// anywhere in the chain is sent verbatim, anything else is internal_error with the
// error's message.
func asWireError(err error) *Error {
	var we *Error
	if errors.As(err, &we) {
		return we
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}
