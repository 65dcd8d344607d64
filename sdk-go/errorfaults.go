package octet

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The tool faults whose error object the registry fixes (schema/errors.schema.json
// messages; schema/error-vectors/ holds the exact objects every SDK must answer).

// unknownTool is -32602 for a tool/call naming a tool the catalog does not hold.
func unknownTool(name string) *Error {
	msg := protocol.FormatMessage(protocol.MessageUnknownTool, "tool", name)
	return jsonrpc.NewError(protocol.CodeInvalidParams, msg, map[string]string{"path": "/name", "reason": msg})
}

// handlerException is -32603 for a tool handler that panicked ("panic") or returned an
// error that is not an octet.Error ("error"), keeping its message.
func handlerException(tool, exception, message string) *Error {
	return jsonrpc.NewError(protocol.CodeInternalError,
		protocol.FormatMessage(protocol.MessageHandlerException, "tool", tool, "exception", exception, "message", message),
		map[string]string{"tool": tool, "exception": exception})
}

// outputSchemaFault is -32603 for a result whose structured_content breaks the tool's
// own output_schema: the extension broke its promise, the caller's arguments were fine.
// pointer is within structured_content ("" its root).
func outputSchemaFault(tool, pointer, keyword, reason string) *Error {
	at := "/structured_content" + pointer
	return jsonrpc.NewError(protocol.CodeInternalError,
		protocol.FormatMessage(protocol.MessageOutputSchemaFault, "tool", tool, "pointer", at, "reason", reason),
		map[string]string{"tool": tool, "pointer": at, "keyword": keyword})
}

// invokeTool runs t, turning a panic into the registry's handler_exception (the stack
// goes to the log, never to the wire) and naming the tool.
func (e *Extension) invokeTool(ctx context.Context, t *ToolDef, apiVersion string, tc *toolCall) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("tool handler panicked", "tool", t.spec.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, handlerException(t.spec.Name, "panic", fmt.Sprint(p))
		}
	}()
	return t.invoke(ctx, apiVersion, tc.args, tc.rawArgs)
}

// handlerError is the wire error of a tool handler's returned error: an octet.Error
// crosses verbatim, anything else is handler_exception.
func handlerError(tool string, err error) error {
	// A KV migration failure is named as Python and TypeScript name their exception, even
	// when it wraps the host's error (which would otherwise cross verbatim).
	var me *MigrationError
	if errors.As(err, &me) {
		return handlerException(tool, "MigrationError", err.Error())
	}
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return err
	}
	return handlerException(tool, "error", err.Error())
}
