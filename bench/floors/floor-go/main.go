// Command floor-go is the benchmark's floor for Go: the least code that speaks the
// octet wire (initialize, tool/call echo, callback_n, crash, shutdown). It reads one
// request at a time and answers it with one write, with no validation, no pool and
// no admission queue, so an SDK measured against it shows what its machinery costs.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
)

type frame struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

type initParams struct {
	APIVersion string `json:"api_version"`
	Manifest   struct {
		Name        string `json:"name"`
		Version     string `json:"version"`
		Contributes struct {
			Tools []string `json:"tools"`
		} `json:"contributes"`
	} `json:"manifest"`
	Protocol *struct {
		Version          string   `json:"version"`
		RequiredFeatures []string `json:"required_features"`
		OptionalFeatures []string `json:"optional_features"`
	} `json:"protocol"`
}

type toolCall struct {
	Name      string `json:"name"`
	Arguments struct {
		Value json.RawMessage `json:"value"`
		N     int             `json:"n"`
		Code  *int            `json:"code"`
	} `json:"arguments"`
}

var (
	in   = bufio.NewScanner(os.Stdin)
	name string
	seq  int
)

func main() {
	// Frames may reach MAX_MESSAGE_BYTES (1 MiB); leave room for the newline.
	in.Buffer(make([]byte, 64*1024), 2<<20)
	for in.Scan() {
		var f frame
		if err := json.Unmarshal(in.Bytes(), &f); err != nil {
			fmt.Fprintf(os.Stderr, "floor-go: bad frame: %v\n", err)
			os.Exit(2)
		}
		if f.Method == "" || f.ID == nil {
			continue // responses to nobody and notifications need no answer here
		}
		result, errObj := serve(f)
		reply := map[string]any{"jsonrpc": "2.0", "id": f.ID}
		if errObj != nil {
			reply["error"] = errObj
		} else {
			reply["result"] = result
		}
		write(reply)
		if f.Method == "shutdown" {
			os.Exit(0)
		}
	}
}

func serve(f frame) (any, any) {
	switch f.Method {
	case "initialize":
		var p initParams
		if err := json.Unmarshal(f.Params, &p); err != nil {
			return nil, map[string]any{"code": -32602, "message": "initialize params: " + err.Error()}
		}
		name = p.Manifest.Name
		tools := []map[string]any{}
		for _, t := range p.Manifest.Contributes.Tools {
			tools = append(tools, map[string]any{"name": t, "description": t, "parameters": map[string]any{"type": "object"}})
		}
		res := map[string]any{"api_version": p.APIVersion, "name": p.Manifest.Name, "version": p.Manifest.Version,
			"tools": tools, "commands": []any{}}
		if p.Protocol != nil {
			// callback_n needs kv; 64 lets the host pipeline requests (they are still
			// served one at a time, in order).
			features := append([]string{}, p.Protocol.RequiredFeatures...)
			for _, f := range p.Protocol.OptionalFeatures {
				if f == "kv" {
					features = append(features, f)
				}
			}
			res["protocol"] = map[string]any{"version": p.Protocol.Version, "features": features,
				"limits": map[string]any{"max_concurrent_requests": 64}}
		}
		return res, nil
	case "tool/call":
		var c toolCall
		if err := json.Unmarshal(f.Params, &c); err != nil {
			return nil, map[string]any{"code": -32602, "message": "tool/call params: " + err.Error()}
		}
		switch c.Name {
		case "echo":
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": "echo"}},
				"structured_content": map[string]any{"value": c.Arguments.Value}}, nil
		case "callback_n":
			for i := 0; i < c.Arguments.N; i++ {
				if err := callHost("kv.get", map[string]any{"namespace": name, "key": "callback"}); err != nil {
					return nil, map[string]any{"code": -32603, "message": err.Error()}
				}
			}
			return map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}},
				"structured_content": map[string]any{"calls": c.Arguments.N}}, nil
		case "crash":
			code := 3
			if c.Arguments.Code != nil {
				code = *c.Arguments.Code
			}
			os.Exit(code)
		}
		return nil, map[string]any{"code": -32602, "message": "floor has no tool " + strconv.Quote(c.Name)}
	case "shutdown":
		return map[string]any{}, nil
	}
	return nil, map[string]any{"code": -32601, "message": "method not found", "data": map[string]any{"method": f.Method}}
}

// callHost sends one request to the host and reads frames until its answer: the
// floor serves one request at a time, so nothing else arrives meanwhile.
func callHost(method string, params any) error {
	seq++
	id := "go:" + strconv.Itoa(seq)
	write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	want, _ := json.Marshal(id)
	for in.Scan() {
		var f frame
		if err := json.Unmarshal(in.Bytes(), &f); err != nil {
			return fmt.Errorf("bad frame while waiting for %s: %v", method, err)
		}
		if f.Method == "" && string(f.ID) == string(want) {
			if f.Error != nil {
				return fmt.Errorf("%s failed: %s", method, f.Error)
			}
			return nil
		}
	}
	return fmt.Errorf("stdin closed while waiting for %s", method)
}

func write(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "floor-go: encode: %v\n", err)
		os.Exit(2)
	}
	if _, err := os.Stdout.Write(append(b, '\n')); err != nil {
		os.Exit(1)
	}
}
