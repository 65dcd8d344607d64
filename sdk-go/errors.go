package octet

import (
	"fmt"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Error is a JSON-RPC error. A handler that returns one (possibly wrapped) has it
// sent verbatim; any other error becomes internal_error (-32603) with its message.
type Error = jsonrpc.Error

// Fail returns a structured error for a handler to return: code, message and data
// cross the wire exactly. Authored codes should lie outside -32768..-32000.
func Fail(code int64, message string, data any) error {
	return jsonrpc.NewError(code, message, data)
}

// invalidParams is -32602 with data {path, reason}.
func invalidParams(path, format string, args ...any) *Error {
	reason := fmt.Sprintf(format, args...)
	msg := reason
	if path != "" {
		msg = path + ": " + reason
	}
	data := map[string]string{"reason": reason}
	if path != "" {
		data["path"] = path
	}
	return jsonrpc.NewError(protocol.CodeInvalidParams, "invalid params: "+msg, data)
}

// localError is an error the SDK raises before sending anything (a bound the SDK
// checks locally). It is -32602 so that a tool returning it propagates the same
// code the host would have answered.
func localError(format string, args ...any) *Error {
	return invalidParams("", format, args...)
}

// featureError reports a service used without its negotiated feature.
func featureError(what string, feature protocol.Feature) error {
	return fmt.Errorf("octet: %s needs the negotiated feature %q (API 0.2+, offered by the host)", what, feature)
}
