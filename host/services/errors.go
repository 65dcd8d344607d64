package services

import (
	"fmt"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// invalidParams is -32602 naming the offending field path and the reason.
func invalidParams(path, format string, args ...any) *jsonrpc.Error {
	reason := fmt.Sprintf(format, args...)
	msg := "invalid params: " + reason
	if path != "" {
		msg = fmt.Sprintf("invalid params: %s: %s", path, reason)
	}
	data := map[string]string{"reason": reason}
	if path != "" {
		data["path"] = path
	}
	return jsonrpc.NewError(protocol.CodeInvalidParams, msg, data)
}

// unavailable is -32002: an absent owner or service, or a rejected operation.
func unavailable(format string, args ...any) *jsonrpc.Error {
	reason := fmt.Sprintf(format, args...)
	return jsonrpc.NewError(protocol.CodeServiceUnavailable, "service unavailable: "+reason, map[string]string{"reason": reason})
}

// internal is -32603; the message names what failed but never a value.
func internal(format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(protocol.CodeInternalError, fmt.Sprintf(format, args...), nil)
}

func methodNotFound(method, why string) *jsonrpc.Error {
	return jsonrpc.NewError(protocol.CodeMethodNotFound, fmt.Sprintf("method %q is not available: %s", method, why), map[string]string{"method": method})
}

// errSecretUnavailable is -32004 without data: missing values and broker
// failures look the same, and never carry the value.
func errSecretUnavailable() *jsonrpc.Error {
	return jsonrpc.NewError(protocol.CodeSecretUnavailable, "secret is unavailable", nil)
}
