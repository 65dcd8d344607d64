// Command conformance-fixture implements docs/design/fixture.md with the Go SDK's
// public API only, so `octet-host certify` runs the same checks against it as
// against the Python and TypeScript fixtures.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

const namespace = "conformance-fixture"

var stuckShutdown atomic.Bool

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func main() {
	ext := octet.New(octet.Options{})
	registerBasics(ext)
	registerServices(ext)
	registerContributions(ext)
	registerSteering(ext)
	registerMigration(ext)
	registerSettings(ext)
	registerProbe(ext)
	ext.Run()
}

// registerBasics: echo, errors, timing, progress, stdout, crash, limits, typing.
func registerBasics(ext *octet.Extension) {
	octet.Tool(ext, octet.ToolSpec{Name: "echo", Description: "Echo a value as structured content"},
		func(ctx context.Context, a struct {
			Value any `json:"value"`
		}) (octet.Result, error) {
			return octet.Text("echo").WithStructured(map[string]any{"value": a.Value}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "fail_with", Description: "Fail with exactly this JSON-RPC error"},
		func(ctx context.Context, a struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		}) (octet.Result, error) {
			if a.Data != nil {
				return octet.Result{}, octet.Fail(a.Code, a.Message, a.Data)
			}
			return octet.Result{}, octet.Fail(a.Code, a.Message, nil)
		})
	octet.Tool(ext, octet.ToolSpec{Name: "slow", Description: "Wait up to ms while watching cancellation"},
		func(ctx context.Context, a struct {
			MS int64 `json:"ms" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			t := time.NewTimer(time.Duration(a.MS) * time.Millisecond)
			defer t.Stop()
			select {
			case <-t.C:
				return octet.Text("slept"), nil
			case <-ctx.Done():
				return octet.Result{}, ctx.Err() // answered -32800
			}
		})
	octet.Tool(ext, octet.ToolSpec{Name: "ignore_cancel", Description: "Report progress once, then block ms ignoring cancellation"},
		func(ctx context.Context, a struct {
			MS int64 `json:"ms" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			if slices.Contains(ext.NegotiatedFeatures(), string(protocol.FeatureRequestProgress)) {
				if err := ext.Progress.Report(ctx, octet.Steps("ignoring cancellation", 1, 1, "")); err != nil {
					return octet.Result{}, err
				}
			}
			time.Sleep(time.Duration(a.MS) * time.Millisecond) // deliberately deaf to ctx: non-cooperative
			return octet.Text("ignored"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "progress_n", Description: "Emit n status progress events"},
		func(ctx context.Context, a struct {
			N int `json:"n" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			for i := 1; i <= a.N; i++ {
				if err := ext.Progress.Report(ctx, octet.Steps(fmt.Sprintf("step %d", i), i, a.N, "")); err != nil {
					return octet.Result{}, err
				}
			}
			return octet.Text("done"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "print_stdout", Description: "Print to stdout and run a child that does"},
		func(ctx context.Context, a struct {
			Text string `json:"text"`
		}) (octet.Result, error) {
			fmt.Println(a.Text)
			child := exec.CommandContext(ctx, "sh", "-c", "echo child-output")
			child.Stdout = os.Stdout // inherits fd 1, which the SDK pointed at stderr
			if err := child.Run(); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("printed"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "crash", Description: "Exit at once without answering"},
		func(ctx context.Context, a struct {
			Code *int `json:"code,omitempty"`
		}) (octet.Result, error) {
			code := 3
			if a.Code != nil {
				code = *a.Code
			}
			os.Exit(code)
			return octet.Result{}, nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "big_result", Description: "Return bytes × \"x\" as one text part"},
		func(ctx context.Context, a struct {
			Bytes int `json:"bytes" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			return octet.Text(strings.Repeat("x", a.Bytes)), nil
		})
	// suite_args declares the schema of docs/design/fixture.md: schema.suite_verdicts
	// compares the SDK validator's answers with the host's.
	var suiteArgs map[string]any
	if err := json.Unmarshal([]byte(suiteArgsSchema), &suiteArgs); err != nil {
		panic(err)
	}
	octet.Tool(ext, octet.ToolSpec{Name: "suite_args", Description: "Accepts exactly what its schema allows", Parameters: suiteArgs},
		func(ctx context.Context, _ map[string]any) (octet.Result, error) { return octet.Text("accepted"), nil })
	octet.Tool(ext, octet.ToolSpec{Name: "typed", Description: "Strictly typed arguments and output",
		OutputSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"count": map[string]any{"type": "integer"}},
			"required":   []string{"count"},
		}},
		func(ctx context.Context, a struct {
			Count int64  `json:"count"`
			Label string `json:"label"`
		}) (octet.Result, error) {
			return octet.Text(fmt.Sprintf("%s:%d", a.Label, a.Count)).WithStructured(map[string]any{"count": a.Count}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "arm_stuck_shutdown", Description: "Make on_shutdown block forever"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			stuckShutdown.Store(true)
			return octet.Text("armed"), nil
		})
	ext.OnShutdown(func(ctx context.Context) {
		if stuckShutdown.Load() {
			select {} // proves the SDK bounds on_shutdown
		}
	})
}

// suiteArgsSchema is suite_args' parameters schema, as docs/design/fixture.md states it.
const suiteArgsSchema = `{"type":"object",
 "$defs":{"tag":{"type":"string","minLength":1}},
 "properties":{"tags":{"type":"array","items":{"$ref":"#/$defs/tag"},"uniqueItems":true},
  "step":{"type":"number","multipleOf":0.5},"card":{"type":"string"},"billing":{"type":"string"}},
 "dependentSchemas":{"card":{"required":["billing"]}},
 "unevaluatedProperties":false}`
