package jsonrpc

import (
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// refuseNesting answers a frame nested past MAX_JSON_DEPTH as the Python and TypeScript
// SDKs do: a request with a readable id gets -32602 naming the nesting and the stream goes
// on; a notification is dropped; anything else (a response, an unreadable envelope) is a
// protocol error. It reports whether reading goes on. The envelope is split without
// decoding params or result, so this costs no more than the scan.
func (c *Conn) refuseNesting(line []byte, at, lineNo int) bool {
	reason := fmt.Sprintf("%s at byte %d", strictjson.Nesting, at)
	m, err := decodeMessage(line)
	switch {
	case err == nil && m.hasMethod && !m.id.IsZero():
		c.replyAsync(appendError(nil, m.id, &Error{
			Code: CodeInvalidParams, Message: "invalid params: " + reason,
			Data: mustJSON(map[string]string{"reason": reason}),
		}))
		return true
	case err == nil && m.hasMethod:
		if c.opts.Logf != nil {
			c.opts.Logf("dropped notification %q at line %d: %s", m.method, lineNo, reason)
		}
		return true
	}
	c.protocolError(CodeInvalidRequest, line, "invalid frame at line %d: %s", lineNo, reason)
	return false
}
