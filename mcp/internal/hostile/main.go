// Command hostile is an MCP server that misbehaves on purpose, one way per mode, for the
// bridge's tests (e2e.TestHostileServers):
//
//	hostile liar     a tool whose results do not match the outputSchema it declares
//	hostile garbage  answers initialize with a line that is not JSON
//	hostile silent   reads and never answers
//	hostile die      writes a diagnostic to stderr and exits 7 on initialize
//	hostile flood    a working server that sends log notifications without end
//
// It speaks newline-delimited JSON-RPC by hand, so nothing in an SDK smooths its faults.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
)

var (
	mu  sync.Mutex
	out = bufio.NewWriter(os.Stdout)
)

func send(v any) {
	b, _ := json.Marshal(v)
	mu.Lock()
	defer mu.Unlock()
	out.Write(append(b, '\n'))
	out.Flush()
}

func reply(id json.RawMessage, result any) {
	send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func main() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 16<<20)
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			continue
		}
		switch mode {
		case "silent":
			continue
		case "die":
			fmt.Fprintln(os.Stderr, "hostile: fatal: cannot open the database /nonexistent/db")
			os.Exit(7)
		case "garbage":
			if m.Method == "initialize" {
				mu.Lock()
				out.WriteString("<html>this is not JSON-RPC</html>\n")
				out.Flush()
				mu.Unlock()
			}
			continue
		}
		switch m.Method {
		case "initialize":
			var p struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			_ = json.Unmarshal(m.Params, &p)
			reply(m.ID, map[string]any{"protocolVersion": p.ProtocolVersion, "serverInfo": map[string]any{"name": "hostile-" + mode, "version": "1"},
				"capabilities": map[string]any{"tools": map[string]any{}, "logging": map[string]any{}}})
		case "notifications/initialized":
			if mode == "flood" {
				go flood()
			}
		case "logging/setLevel", "ping":
			reply(m.ID, map[string]any{})
		case "tools/list":
			reply(m.ID, map[string]any{"tools": []any{
				map[string]any{"name": "ok", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "lie", "inputSchema": map[string]any{"type": "object"},
					"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}, "required": []any{"n"}}},
			}})
		case "tools/call":
			var p struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(m.Params, &p)
			if p.Name == "lie" {
				reply(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "n is a string"}}, "structuredContent": map[string]any{"n": "seven"}})
				continue
			}
			reply(m.ID, map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok from " + mode}}})
		default:
			if len(m.ID) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32601, "message": "no " + m.Method}})
			}
		}
	}
	if err := in.Err(); err != nil && err != io.EOF {
		os.Exit(1)
	}
}

// flood writes log notifications as fast as the pipe takes them, until stdout closes.
func flood() {
	for i := 0; ; i++ {
		send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info", "data": fmt.Sprintf("flood %d", i)}})
	}
}
