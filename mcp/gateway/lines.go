package gateway

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessage bounds one message a client sends over stdio (bytes of its line).
const DefaultMaxMessage = 16 << 20

// MaxDepth bounds how deeply a client's message may nest arrays and objects.
const MaxDepth = 512

// LineTransport serves MCP over newline-delimited JSON (stdio). Unlike the SDK's stdio
// transport, a bad line never ends the session: a line that is not JSON, nests deeper
// than MaxDepth or is not a JSON-RPC message is answered with -32700 or -32600 (id null,
// or the message's id when it has a usable one) and the next line is read. A line over
// MaxMessage bytes is answered with -32600 and skipped without being held: memory stays
// bounded by MaxMessage whatever the client writes.
type LineTransport struct {
	In         io.Reader
	Out        io.Writer
	MaxMessage int // default DefaultMaxMessage
}

func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	maxMsg := t.MaxMessage
	if maxMsg <= 0 {
		maxMsg = DefaultMaxMessage
	}
	return &lineConn{in: t.In, r: bufio.NewReaderSize(t.In, 64<<10), out: t.Out, max: maxMsg}, nil
}

type lineConn struct {
	in   io.Reader
	r    *bufio.Reader
	line []byte
	max  int

	writeMu sync.Mutex
	out     io.Writer

	closeOnce sync.Once
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, over, err := c.readLine()
		if over > 0 {
			c.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the message is longer than %d bytes (%d read); it was discarded", c.max, over))
		}
		if err != nil {
			return nil, err
		}
		if line = bytes.TrimSpace(line); len(line) == 0 || over > 0 {
			continue
		}
		if d := depth(line); d > MaxDepth {
			c.refuse(nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: the message nests deeper than %d levels", MaxDepth))
			continue
		}
		if !json.Valid(line) {
			var se *json.SyntaxError
			msg := "parse error: the message is not JSON"
			if err := json.Unmarshal(line, new(any)); errors.As(err, &se) {
				msg = fmt.Sprintf("parse error at byte %d: %v", se.Offset, se)
			}
			c.refuse(nil, jsonrpc.CodeParseError, msg)
			continue
		}
		if line[0] != '{' {
			c.refuse(nil, jsonrpc.CodeInvalidRequest, "invalid request: a message must be a JSON object (batches were removed in MCP 2025-06-18)")
			continue
		}
		msg, err := jsonrpc.DecodeMessage(line)
		if err != nil {
			c.refuse(idOf(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
			continue
		}
		return msg, nil
	}
}

// readLine returns the next line (valid until the next call), or, for a line over the
// bound, how many bytes of it were read and discarded.
func (c *lineConn) readLine() ([]byte, int, error) {
	line, err := c.r.ReadSlice('\n')
	if err == nil || (errors.Is(err, io.EOF) && len(line) > 0) {
		if len(line) > c.max {
			return nil, len(line), nil
		}
		return line, 0, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, 0, err
	}
	c.line = append(c.line[:0], line...)
	over := 0
	for {
		line, err = c.r.ReadSlice('\n')
		if over == 0 && len(c.line)+len(line) > c.max {
			over = len(c.line)
			c.line = c.line[:0]
			if cap(c.line) > 1<<20 {
				c.line = nil // give a big buffer back
			}
		}
		if over > 0 {
			over += len(line)
		} else {
			c.line = append(c.line, line...)
		}
		switch {
		case err == nil, errors.Is(err, io.EOF) && (len(c.line) > 0 || over > 0):
			if over > 0 {
				return nil, over, nil
			}
			return c.line, 0, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, over, err
		}
	}
}

// depth is how deeply b nests arrays and objects (strings skipped), stopping once it
// passes MaxDepth: the decoder recurses, so the bound comes first.
func depth(b []byte) int {
	d, deepest, inString, escaped := 0, 0, false, false
	for _, ch := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
		case ch == '"':
			inString = true
		case ch == '[' || ch == '{':
			d++
			if d > deepest {
				deepest = d
				if d > MaxDepth {
					return d
				}
			}
		case ch == ']' || ch == '}':
			d--
		}
	}
	return deepest
}

// idOf is a message's id when it is one JSON-RPC allows (a string or a number), else nil.
func idOf(line []byte) any {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(m.ID, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return m.ID
	}
	return nil
}

// refuse writes a JSON-RPC error response for a message that never reached the server.
func (c *lineConn) refuse(id any, code int64, message string) {
	resp := struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id}
	resp.Error.Code, resp.Error.Message = code, message
	b, _ := json.Marshal(resp)
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, _ = c.out.Write(append(b, '\n'))
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// Close closes the input when it can be closed, which ends a Read waiting on it.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() {
		if cl, ok := c.in.(io.Closer); ok {
			_ = cl.Close()
		}
	})
	return nil
}

func (c *lineConn) SessionID() string { return "" }
