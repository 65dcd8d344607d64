package bridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/octet-kit/octet/host/sandbox"
)

// stdioTransport runs a stdio MCP server like the SDK's CommandTransport (the same
// shutdown: stdin closed, SIGTERM after terminate, then SIGKILL), but decodes each
// message once with encoding/json. The SDK's stdio connection decodes every message
// three times (a stream decode, a failed try as a batch, the message), the last two with
// a fresh 32 KB decoder buffer each: half of the garbage a forwarded call made, which
// kept the collector busy (docs/mcp.md, Benchmarks). octet-mcp offers 2025-11-25, which has no
// batches, so a line is one message.
type stdioTransport struct {
	cmd       *exec.Cmd
	terminate time.Duration
	tail      *tailBuffer     // the end of the server's stderr, for a handshake diagnostic
	policy    *sandbox.Policy // when set, the server starts confined (sandbox.go)
}

// exited describes how the server process ended ("exit status 3; stderr: ...") once it
// has, or "" while it runs (or never started).
func (t *stdioTransport) exited() string {
	ps := t.cmd.ProcessState
	if ps == nil {
		return ""
	}
	out := ps.String()
	if t.tail != nil {
		if tail := strings.TrimSpace(t.tail.String()); tail != "" {
			out += "; stderr ends: " + strconv.Quote(tail)
		}
	}
	return out
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.b), "?")
}

func (t *stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	stdout, err := t.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdin, err := t.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	if err := t.start(); err != nil {
		return nil, err
	}
	return &stdioConn{cmd: t.cmd, stdin: stdin, r: bufio.NewReaderSize(stdout, 64<<10), terminate: t.terminate}, nil
}

// stdioConn is one server process's connection. The SDK reads from one goroutine and
// may write from several.
type stdioConn struct {
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	r         *bufio.Reader
	line      []byte // the read buffer of a line longer than r's
	terminate time.Duration

	writeMu   sync.Mutex
	closeOnce sync.Once
	closeErr  error
}

// wireMessage is a JSON-RPC message as read: method present means a request or
// notification, absent a response.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *jsonrpc.Error  `json:"error"`
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		line, err := c.readLine()
		if err != nil {
			return nil, err
		}
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		var w wireMessage
		if err := json.Unmarshal(line, &w); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		if w.JSONRPC != "2.0" {
			return nil, fmt.Errorf("invalid message version tag %q; expected \"2.0\"", w.JSONRPC)
		}
		id, err := jsonrpc.MakeID(w.ID)
		if err != nil {
			return nil, err
		}
		if w.Method != nil {
			return &jsonrpc.Request{ID: id, Method: *w.Method, Params: w.Params}, nil
		}
		if !id.IsValid() {
			return nil, fmt.Errorf("a response without an id: %.80s", line)
		}
		resp := &jsonrpc.Response{ID: id, Result: w.Result}
		if w.Error != nil {
			resp.Error = w.Error // only when present: a nil *Error in the interface would not be nil
		}
		return resp, nil
	}
}

// readLine returns the next line (valid until the next call), bounded by the SDK's
// DefaultMaxLineLength; io.EOF once the server's stdout ended.
func (c *stdioConn) readLine() ([]byte, error) {
	line, err := c.r.ReadSlice('\n')
	if err == nil || (errors.Is(err, io.EOF) && len(line) > 0) {
		return line, nil
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	c.line = append(c.line[:0], line...)
	for {
		line, err = c.r.ReadSlice('\n')
		c.line = append(c.line, line...)
		if len(c.line) > mcp.DefaultMaxLineLength {
			return nil, fmt.Errorf("a message of the MCP server exceeds %d bytes", mcp.DefaultMaxLineLength)
		}
		switch {
		case err == nil, errors.Is(err, io.EOF) && len(c.line) > 0:
			return c.line, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err = c.stdin.Write(append(data, '\n'))
	return err
}

// Close ends the server as the MCP stdio transport says: close its stdin, wait, then
// SIGTERM, wait, then SIGKILL.
func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() {
		if err := c.stdin.Close(); err != nil {
			c.closeErr = fmt.Errorf("closing stdin: %v", err)
			return
		}
		done := make(chan error, 1)
		go func() { done <- c.cmd.Wait() }()
		wait := func() (error, bool) {
			t := time.NewTimer(c.terminate)
			defer t.Stop()
			select {
			case err := <-done:
				return err, true
			case <-t.C:
				return nil, false
			}
		}
		if err, ok := wait(); ok {
			c.closeErr = err
			return
		}
		if c.cmd.Process.Signal(syscall.SIGTERM) == nil {
			if err, ok := wait(); ok {
				c.closeErr = err
				return
			}
		}
		if err := c.cmd.Process.Kill(); err != nil {
			c.closeErr = err
			return
		}
		if err, ok := wait(); ok {
			c.closeErr = err
			return
		}
		c.closeErr = errors.New("unresponsive subprocess")
	})
	return c.closeErr
}

func (c *stdioConn) SessionID() string { return "" }
