package octet_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// TestMain lets the test binary be the extension process for the process
// transport: re-executed with OCTET_SDK_TEST_EXTENSION=1 it serves testExtension
// on its real stdin/stdout (with fd protection) and exits.
func TestMain(m *testing.M) {
	switch os.Getenv("OCTET_SDK_TEST_EXTENSION") {
	case "1":
		testExtension(octet.Options{}).Run()
	case "floor":
		floorExtension(os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// manifest is the test extension's manifest.
func manifest() map[string]any {
	return map[string]any{
		"name": "sdk-test", "version": "1.2.3", "api_version": "0.4",
		"entrypoint":   map[string]any{"command": "run"},
		"capabilities": map[string]any{"secrets": []string{"token"}},
		"contributes": map[string]any{
			"tools": []string{"echo", "typed", "slow", "progress_n", "print_stdout", "big_result",
				"publish", "callback_n", "fail_with", "ask", "secret", "register_dynamic", "whoami"},
			"commands": []string{"join"}, "hooks": []string{"before_prompt"}, "ui": []string{"status"},
			"context": true, "tool_renderers": []string{"echo"}, "notifications": true,
			"confirmations": true, "presentation": true,
		},
	}
}

type echoArgs struct {
	Value any `json:"value"`
}

type typedArgs struct {
	Count int    `json:"count"`
	Label string `json:"label"`
}

// testExtension is the extension every SDK test drives, over both transports.
func testExtension(opts octet.Options) *octet.Extension {
	if opts.Logger == nil {
		opts.Logger = octet.NewLogger(os.Stderr, slog.LevelWarn) // keep test output readable
	}
	ext := octet.New(opts)
	octet.Tool(ext, octet.ToolSpec{Name: "echo", Description: "Echo a value"},
		func(ctx context.Context, a echoArgs) (octet.Result, error) {
			return octet.Text("echo").WithStructured(map[string]any{"value": a.Value}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "typed", Description: "Typed arguments and output",
		OutputSchema: map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}},
			"required": []string{"count"}, "additionalProperties": false}},
		func(ctx context.Context, a typedArgs) (octet.Result, error) {
			if a.Label == "break-output" {
				return octet.Text("bad").WithStructured(map[string]any{"count": "not a number"}), nil
			}
			return octet.Text(fmt.Sprintf("%s:%d", a.Label, a.Count)).WithStructured(map[string]any{"count": a.Count}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "slow", Description: "Wait, watching cancellation"},
		func(ctx context.Context, a struct {
			MS int `json:"ms"`
		}) (octet.Result, error) {
			select {
			case <-time.After(time.Duration(a.MS) * time.Millisecond):
				return octet.Text("slept"), nil
			case <-ctx.Done():
				return octet.Result{}, ctx.Err()
			}
		})
	octet.Tool(ext, octet.ToolSpec{Name: "progress_n", Description: "Emit n progress events"},
		func(ctx context.Context, a struct {
			N int `json:"n"`
		}) (octet.Result, error) {
			for i := 1; i <= a.N; i++ {
				if err := ext.Progress.Report(ctx, octet.Steps(fmt.Sprintf("step %d", i), i, a.N, "")); err != nil {
					return octet.Result{}, err
				}
			}
			return octet.Text("done"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "print_stdout", Description: "Write to stdout the ordinary ways"},
		func(ctx context.Context, a struct {
			Text string `json:"text"`
		}) (octet.Result, error) {
			fmt.Println(a.Text)
			cmd := exec.Command("sh", "-c", "echo child-output")
			cmd.Stdout = os.Stdout
			if err := cmd.Run(); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("printed"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "big_result", Description: "Return a large text"},
		func(ctx context.Context, a struct {
			Bytes int `json:"bytes"`
		}) (octet.Result, error) {
			return octet.Text(strings.Repeat("x", a.Bytes)), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "publish", Description: "Publish deterministic bytes"},
		func(ctx context.Context, a struct {
			Bytes int    `json:"bytes"`
			Mode  string `json:"mode"`
			Path  string `json:"path,omitempty"`
		}) (octet.Result, error) {
			data := make([]byte, a.Bytes)
			for i := range data {
				data[i] = byte(i % 251)
			}
			var info protocol.ArtifactPublishResult
			var err error
			if a.Mode == "inline" {
				opts, err := octet.InlineArtifact("application/octet-stream", "", data)
				if err != nil {
					return octet.Result{}, err
				}
				info, err = ext.Artifacts.Publish(ctx, opts)
			} else {
				rel := a.Path
				if rel == "" {
					rel = "fixture.bin"
				}
				if !strings.Contains(rel, "..") && !filepath.IsAbs(rel) {
					if err := os.WriteFile(filepath.Join(octet.ScratchDir(), rel), data, 0o600); err != nil {
						return octet.Result{}, err
					}
				}
				opts, err := octet.ScratchArtifact("application/octet-stream", "", rel)
				if err != nil {
					return octet.Result{}, err
				}
				info, err = ext.Artifacts.Publish(ctx, opts)
			}
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("published").WithStructured(map[string]any{"artifact_id": info.ArtifactID, "size": info.Size, "sha256": info.SHA256}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "callback_n", Description: "n kv.get calls while serving"},
		func(ctx context.Context, a struct {
			N int `json:"n"`
		}) (octet.Result, error) {
			for i := 0; i < a.N; i++ {
				if _, err := ext.KV.Get(ctx, "callback"); err != nil {
					return octet.Result{}, err
				}
			}
			return octet.Text("called").WithStructured(map[string]any{"calls": a.N}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "fail_with", Description: "Fail with a structured error"},
		func(ctx context.Context, a struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
			Data    any    `json:"data,omitempty"`
		}) (octet.Result, error) {
			return octet.Result{}, octet.Fail(a.Code, a.Message, a.Data)
		})
	octet.Tool(ext, octet.ToolSpec{Name: "ask", Description: "Confirm or input"},
		func(ctx context.Context, a struct {
			Kind   string `json:"kind"`
			Prompt string `json:"prompt"`
			Secret bool   `json:"secret,omitempty"`
		}) (octet.Result, error) {
			if a.Kind == "confirm" {
				ok, err := ext.UI.Confirm(ctx, a.Prompt)
				return octet.Text("asked").WithStructured(map[string]any{"answer": ok.Confirmed}), err
			}
			v, err := ext.UI.RequestInput(ctx, a.Prompt, octet.UIRequestInputOptions{Secret: a.Secret})
			return octet.Text("asked").WithStructured(map[string]any{"answer": v.Value}), err
		})
	octet.Tool(ext, octet.ToolSpec{Name: "secret", Description: "Digest of a secret"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
		}) (octet.Result, error) {
			v, err := ext.Secrets.Get(ctx, protocol.SecretName(a.Name))
			if err != nil {
				return octet.Result{}, err
			}
			sum := sha256.Sum256([]byte(v.Value))
			return octet.Text("secret").WithStructured(map[string]any{"sha256": hex.EncodeToString(sum[:])}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "register_dynamic", Description: "Register a dynamic tool"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
			Text string `json:"text"`
		}) (octet.Result, error) {
			def, err := octet.DefineTool(octet.ToolSpec{Name: a.Name, Description: "dynamic"},
				func(ctx context.Context, _ struct{}) (octet.Result, error) { return octet.Text(a.Text), nil })
			if err != nil {
				return octet.Result{}, err
			}
			up, err := ext.Catalog.Register(ctx, []*octet.ToolDef{def})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("registered").WithStructured(map[string]any{"revision": up.Revision}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "whoami", Description: "The ambient request's owner"},
		func(ctx context.Context, _ struct{}) (octet.Result, error) {
			return octet.Text("owner").WithStructured(map[string]any{"owner": octet.Owner(ctx)}), nil
		})
	ext.Command("join", "Join arguments", func(ctx context.Context, args []string) (octet.CommandResult, error) {
		return octet.CommandResult{Text: strings.Join(args, " ")}, nil
	})
	ext.Hook("before_prompt", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		return octet.Continue(), nil
	})
	ext.Context(func(ctx context.Context, params json.RawMessage) ([]octet.ContextItem, error) {
		return []octet.ContextItem{{Label: "test", Content: "ctx", Placement: "system_suffix"}}, nil
	})
	ext.Status("status", func(ctx context.Context, params json.RawMessage) (octet.StatusResult, error) {
		return octet.StatusResult{Text: "ready"}, nil
	})
	ext.Renderer("echo", func(ctx context.Context, params json.RawMessage) ([]octet.Segment, error) {
		return []octet.Segment{{Text: "echo"}}, nil
	})
	return ext
}

// transport starts the test extension one way.
type transport struct {
	name  string
	start func(t *testing.T, opts octettest.Options) *octettest.Host
}

var transports = []transport{
	{"loopback", func(t *testing.T, opts octettest.Options) *octettest.Host {
		return octettest.Start(t, testExtension(octet.Options{}), opts)
	}},
	{"process", func(t *testing.T, opts octettest.Options) *octettest.Host {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "OCTET_SDK_TEST_EXTENSION=1")
		return octettest.StartProcess(t, cmd, opts)
	}},
}

// behaviour is one SDK behaviour checked over both transports.
type behaviourCase struct {
	name string
	fn   func(t *testing.T, h *octettest.Host)
}

var behaviours []behaviourCase

// behaviour registers a behaviour for TestBehaviours (declared at package level so
// each lives next to the other tests of its area).
func behaviour(name string, fn func(t *testing.T, h *octettest.Host)) bool {
	behaviours = append(behaviours, behaviourCase{name, fn})
	return true
}

// Shared answers of the scripted host for the behaviours.
const scriptedInput = "typed answer"

// TestBehaviours runs every registered behaviour over the loopback and over a real
// child process (seed 004's two-transport matrix). Each transport starts one
// extension and the behaviours share it, as a host's calls would; they are written
// to tolerate what earlier ones left (catalog revisions, artifacts).
func TestBehaviours(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OCTET_EXTENSION_SCRATCH", dir)
	answer := scriptedInput
	opts := octettest.Options{Manifest: manifest(), Script: octettest.Script{
		ScratchDir: dir,
		Confirm:    func(m string) bool { return m == "sure?" },
		Input:      func(p string, secret bool) *string { return &answer },
		Secrets:    map[string]string{"token": "s3cret"},
	}}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			h := tr.start(t, opts)
			for _, b := range behaviours {
				t.Run(b.name, func(t *testing.T) { b.fn(t, h) })
			}
		})
	}
}

func jsonrpcID(n int64) jsonrpc.ID { return jsonrpc.IntID(n) }
