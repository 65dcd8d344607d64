package jsonrpc

import (
	"bytes"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// nestingOffset is the byte offset of the first array or object in line opened deeper
// than MAX_JSON_DEPTH, or -1. It runs before anything decodes the frame, so a hostile
// frame is refused without a decoder recursing or allocating once per level; strings are
// jumped over whole (a bracket inside one does not nest). A line shorter than the bound
// cannot nest past it and skips the scan.
func nestingOffset(line []byte) int {
	if len(line) <= strictjson.MaxDepth {
		return -1
	}
	depth := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			i = closingQuote(line, i+1)
		case '{', '[':
			if depth++; depth > strictjson.MaxDepth {
				return i
			}
		case '}', ']':
			depth--
		}
	}
	return -1
}

// closingQuote is the index of the quote closing a string whose text starts at from (the
// first quote not escaped by an odd run of backslashes), or len(b) when there is none.
func closingQuote(b []byte, from int) int {
	for {
		q := bytes.IndexByte(b[from:], '"')
		if q < 0 {
			return len(b)
		}
		q += from
		n := 0
		for j := q - 1; j >= 0 && b[j] == '\\'; j-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		from = q + 1
	}
}

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
			Code: protocol.CodeInvalidParams, Message: "invalid params: " + reason,
			Data: mustJSON(map[string]string{"reason": reason}),
		}))
		return true
	case err == nil && m.hasMethod:
		if c.opts.Logf != nil {
			c.opts.Logf("dropped notification %q at line %d: %s", m.method, lineNo, reason)
		}
		return true
	}
	c.protocolError(protocol.CodeInvalidRequest, line, "invalid frame at line %d: %s", lineNo, reason)
	return false
}
