// Command revext is the services integration tests' extension: a real
// process speaking the wire through sdk-go/jsonrpc. Its one tool, "reverse",
// performs the extension->host calls listed in its arguments, correlated to
// the tool call ("$parent" in params becomes the call's id), and returns
// every outcome as JSON text. A tool registered later answers "late ok".
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

type call struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Notify bool            `json:"notify"`
}

type outcome struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *jsonrpc.Error  `json:"error,omitempty"`
}

func main() {
	var conn *jsonrpc.Conn
	conn = jsonrpc.NewConn(os.Stdin, os.Stdout, jsonrpc.Options{IDPrefix: "go:", Cancellation: jsonrpc.Cancellation{Method: "$/cancelRequest"}, Handler: func(ctx context.Context, req *jsonrpc.Request) (any, error) {
		switch req.Method {
		case "initialize":
			return initialize(req.Params)
		case "tool/call":
			return toolCall(ctx, conn, req)
		case "shutdown":
			go conn.Close()
			return map[string]any{}, nil
		}
		return nil, jsonrpc.NewError(-32601, "method not found: "+req.Method, map[string]string{"method": req.Method})
	}})
	<-conn.Done()
}

func initialize(raw json.RawMessage) (any, error) {
	var p struct {
		APIVersion string `json:"api_version"`
		Manifest   struct {
			Name, Version string
		} `json:"manifest"`
		Protocol struct {
			Version          string   `json:"version"`
			RequiredFeatures []string `json:"required_features"`
			OptionalFeatures []string `json:"optional_features"`
		} `json:"protocol"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	features := append(append([]string{}, p.Protocol.RequiredFeatures...), p.Protocol.OptionalFeatures...)
	return map[string]any{
		"api_version": p.APIVersion, "name": p.Manifest.Name, "version": p.Manifest.Version,
		"tools":    []any{map[string]any{"name": "reverse", "description": "perform reverse calls", "parameters": map[string]any{"type": "object"}}},
		"commands": []any{},
		"protocol": map[string]any{"version": p.Protocol.Version, "features": features, "limits": map[string]any{"max_concurrent_requests": 4}},
	}, nil
}

func toolCall(ctx context.Context, conn *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
	var p struct {
		Name      string `json:"name"`
		Arguments struct {
			Scratch map[string]string `json:"scratch"` // relative path -> base64 bytes
			Calls   []call            `json:"calls"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, err
	}
	if p.Name == "late" {
		return text("late ok"), nil
	}
	for rel, b64 := range p.Arguments.Scratch {
		data, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(os.Getenv("OCTET_EXTENSION_SCRATCH"), rel)
		os.MkdirAll(filepath.Dir(path), 0o700)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return nil, err
		}
	}
	parent, _ := json.Marshal(req.ID.Value())
	var out []outcome
	for _, c := range p.Arguments.Calls {
		params := json.RawMessage(replaceParent(c.Params, parent))
		if c.Notify {
			conn.Notify(c.Method, params)
			out = append(out, outcome{})
			continue
		}
		var res json.RawMessage
		err := conn.Call(ctx, c.Method, params, &res)
		var we *jsonrpc.Error
		switch {
		case errors.As(err, &we):
			out = append(out, outcome{Error: we})
		case err != nil:
			return nil, err
		default:
			out = append(out, outcome{Result: res})
		}
	}
	b, _ := json.Marshal(out)
	return text(string(b)), nil
}

// replaceParent swaps every "$parent" string value for the tool call's id.
func replaceParent(raw json.RawMessage, parent []byte) []byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	var walk func(any) any
	walk = func(x any) any {
		switch t := x.(type) {
		case string:
			if t == "$parent" {
				var p any
				json.Unmarshal(parent, &p)
				return p
			}
		case map[string]any:
			for k, e := range t {
				t[k] = walk(e)
			}
		case []any:
			for i, e := range t {
				t[i] = walk(e)
			}
		}
		return x
	}
	b, _ := json.Marshal(walk(v))
	return b
}

func text(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
}
