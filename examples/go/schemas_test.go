// Package examples_test checks what the Go examples announce as a whole.
package examples_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/BurntSushi/toml"
)

// TestGoExamplesAnnounceTheRecordedSchemas: the parameters and output schemas every
// Go example announces in initialize equal testdata/derived-schemas, which was
// recorded from the same examples when github.com/invopop/jsonschema derived them
// (issue 17): the SDK's own derivation (sdk-go/internal/reflectschema) must keep
// every example's schemas as they were, so the host, certify and any recording see
// the same documents. Its differential test covers the rules one by one; this one
// covers the examples' actual types, which live in main packages no other test can
// import.
func TestGoExamplesAnnounceTheRecordedSchemas(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every Go example")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	goldens, err := filepath.Glob("testdata/derived-schemas/*.json")
	if err != nil || len(goldens) < 6 {
		t.Fatalf("recorded schemas: %v (%d files)", err, len(goldens))
	}
	bin := t.TempDir()
	for _, golden := range goldens {
		name := filepath.Base(golden[:len(golden)-len(".json")])
		t.Run(name, func(t *testing.T) {
			exe := filepath.Join(bin, name)
			build := exec.Command(goBin, "build", "-o", exe, ".")
			build.Dir = name
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			got := announced(t, exe, name)
			var want map[string]any
			raw, _ := os.ReadFile(golden)
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.MarshalIndent(got, "", " ")
				t.Errorf("%s announces\n%s\nrecorded in %s:\n%s", name, g, golden, raw)
			}
		})
	}
}

// announced starts the example, answers its initialize and returns its tools' schemas
// by tool name, in the shape of the recorded files.
func announced(t *testing.T, exe, dir string) map[string]any {
	t.Helper()
	abs, _ := filepath.Abs(dir)
	var manifest map[string]any
	if _, err := toml.DecodeFile(filepath.Join(dir, "extension.toml"), &manifest); err != nil {
		t.Fatal(err)
	}
	params := map[string]any{
		"api_version": "0.4", "octet_version": "0.1.0",
		"extension": map[string]any{"name": manifest["name"], "version": manifest["version"], "dir": abs,
			"manifest_path": filepath.Join(abs, "extension.toml"), "source": "explicit"},
		"manifest":  manifest,
		"workspace": map[string]any{"root": t.TempDir(), "trusted": true},
		"protocol": map[string]any{
			"version":           "0.4",
			"required_features": []string{"request_cancellation", "content_parts"},
			"optional_features": []string{"request_progress", "artifacts", "kv", "host_services"},
			"limits":            map[string]any{"max_concurrent_requests": 64, "max_message_bytes": 1 << 20, "max_pending_requests": 64},
		},
	}
	frame, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	cmd.Stdin = bytes.NewReader(append(frame, '\n'))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	line, err := bufio.NewReaderSize(stdout, 1<<20).ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading initialize's answer: %v", err)
	}
	var resp struct {
		Result struct {
			Tools []struct {
				Name         string `json:"name"`
				Parameters   any    `json:"parameters"`
				OutputSchema any    `json:"output_schema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil || len(resp.Result.Tools) == 0 {
		t.Fatalf("initialize answered %s (%v)", line, err)
	}
	out := map[string]any{}
	for _, tool := range resp.Result.Tools {
		e := map[string]any{"parameters": tool.Parameters}
		if tool.OutputSchema != nil {
			e["output_schema"] = tool.OutputSchema
		}
		out[tool.Name] = e
	}
	return out
}
