package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/internal/suggest"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// unknownToolError classifies a tool/call the extension refused because it serves no tool
// of that name (invalid_params with the schema's message `unknown tool "NAME"`) as kind
// unknown_tool, the kind docs/host.md promises, with the tools the extension does serve
// and the nearest of them; nil for any other failure. The wire code, message and data stay
// in the object for scripts that read them.
func unknownToolError(err error, tool string, ext *host.Extension) map[string]any {
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != protocol.CodeInvalidParams {
		return nil
	}
	want := strings.ReplaceAll(protocol.MessageUnknownTool, "{tool}", tool)
	if we.Message != want {
		return nil
	}
	var tools []string
	if ext != nil {
		tools = ext.Status().Tools
	}
	return unknownTool(tool, tools, we)
}

// unknownTool is the unknown_tool error object for tool, listing tools.
func unknownTool(tool string, tools []string, we *jsonrpc.Error) map[string]any {
	if tools == nil {
		tools = []string{}
	}
	msg := fmt.Sprintf("unknown tool %q", tool) + suggest.Hint(tool, tools, nil)
	if len(tools) > 0 {
		msg += " (tools: " + strings.Join(tools, ", ") + ")"
	}
	out := map[string]any{"kind": "unknown_tool", "message": msg, "tools": tools}
	if c := suggest.Closest(tool, tools); c != "" {
		out["suggestion"] = c
	}
	if we != nil {
		out["code"] = we.Code
		if len(we.Data) > 0 {
			out["data"] = json.RawMessage(we.Data)
		}
	}
	return out
}

// noExtension says that h runs no extension called name, with the nearest name it runs.
func noExtension(h *host.Host, name string) string {
	var names []string
	for _, e := range h.Extensions() {
		names = append(names, e.Name())
	}
	return fmt.Sprintf("no extension %q%s", name, suggest.Hint(name, names, nil))
}
