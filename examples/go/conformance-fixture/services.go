package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// registerServices: the tools that exercise the host's reverse services.
func registerServices(ext *octet.Extension) {
	octet.Tool(ext, octet.ToolSpec{Name: "callback_n", Description: "n sequential kv.get calls while serving"},
		func(ctx context.Context, a struct {
			N int `json:"n" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			for i := 0; i < a.N; i++ {
				if _, err := ext.KV.Get(ctx, "callback"); err != nil {
					return octet.Result{}, err
				}
			}
			return octet.Text("called").WithStructured(map[string]any{"calls": a.N}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "publish", Description: "Publish deterministic bytes inline or by path"},
		func(ctx context.Context, a struct {
			Bytes    int    `json:"bytes" jsonschema:"minimum=0"`
			Mode     string `json:"mode" jsonschema:"enum=inline,enum=path"`
			Corrupt  string `json:"corrupt,omitempty" jsonschema:"enum=size,enum=sha256"`
			MIMEType string `json:"mime_type,omitempty"`
		}) (octet.Result, error) {
			data := pattern(a.Bytes)
			mime := a.MIMEType
			if mime == "" {
				mime = "application/octet-stream"
			}
			size := int64(len(data))
			var sum string
			var art octet.ArtifactsPublishOptions
			if a.Mode == "path" {
				// Hash on a second goroutine while the file is written: both only
				// read data, and on two CPUs the digest costs no extra wall time.
				hashed := make(chan struct{})
				go func() { sum = digest(data); close(hashed) }()
				err := os.WriteFile(filepath.Join(octet.ScratchDir(), "fixture.bin"), data, 0o600)
				<-hashed
				if err != nil {
					return octet.Result{}, err
				}
				file := &protocol.ArtifactPublishFile{MIMEType: mime, Path: "fixture.bin", Size: size, SHA256: sum}
				switch a.Corrupt {
				case "size":
					file.Size++
				case "sha256":
					file.SHA256 = digest(append(data, "corrupt"...))
				}
				art.ArtifactPublishFile = file
			} else {
				sum = digest(data)
				var err error
				if art, err = octet.InlineArtifact(mime, "", data); err != nil {
					return octet.Result{}, err
				}
			}
			info, err := ext.Artifacts.Publish(ctx, art)
			if a.Mode == "path" {
				// The host has its own copy once it answered: removing the scratch file
				// drops its dirty pages instead of writing them back, so a publish writes
				// its bytes to disk once (the host's blob), not twice.
				_ = os.Remove(filepath.Join(octet.ScratchDir(), "fixture.bin"))
			}
			if err != nil {
				return octet.Result{}, err // host errors propagate verbatim
			}
			return octet.Text("published").WithStructured(map[string]any{"artifact_id": info.ArtifactID, "size": size, "sha256": sum}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "register_dynamic", Description: "Register a tool that returns fixed text"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
			Text string `json:"text"`
		}) (octet.Result, error) {
			def, err := octet.DefineTool(octet.ToolSpec{Name: a.Name, Description: "Returns " + a.Text},
				func(context.Context, struct{}) (octet.Result, error) { return octet.Text(a.Text), nil })
			if err != nil {
				return octet.Result{}, octet.Fail(protocol.CodeInvalidParams, err.Error(), nil)
			}
			up, err := ext.Catalog.Register(ctx, []*octet.ToolDef{def})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("registered").WithStructured(map[string]any{"revision": up.Revision}), nil
		})
	// replace_dynamic's catalog is the tools it is given and itself: a replacement is the
	// whole catalog, and the fixture must stay able to replace it again.
	type replaceArgs struct {
		Tools []struct {
			Name string `json:"name"`
			Text string `json:"text"`
		} `json:"tools"`
	}
	replaceSpec := octet.ToolSpec{Name: "replace_dynamic", Description: "Replace the whole dynamic catalog in one change"}
	var replaceDef *octet.ToolDef
	replace := func(ctx context.Context, a replaceArgs) (octet.Result, error) {
		defs := []*octet.ToolDef{replaceDef}
		for _, tl := range a.Tools {
			text := tl.Text
			def, err := octet.DefineTool(octet.ToolSpec{Name: tl.Name, Description: "Returns " + text},
				func(context.Context, struct{}) (octet.Result, error) { return octet.Text(text), nil })
			if err != nil { // nothing is sent: the whole replacement is refused
				return octet.Result{}, octet.Fail(protocol.CodeInvalidParams, err.Error(), nil)
			}
			defs = append(defs, def)
		}
		up, err := ext.Catalog.Replace(ctx, defs)
		if err != nil {
			return octet.Result{}, err
		}
		return octet.Text("replaced").WithStructured(map[string]any{"revision": up.Revision}), nil
	}
	replaceDef, _ = octet.DefineTool(replaceSpec, replace)
	octet.Tool(ext, replaceSpec, replace)
	octet.Tool(ext, octet.ToolSpec{Name: "unregister_dynamic", Description: "Unregister a dynamic tool"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
		}) (octet.Result, error) {
			up, err := ext.Catalog.Unregister(ctx, []string{a.Name})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("unregistered").WithStructured(map[string]any{"revision": up.Revision}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "ask", Description: "Confirm or request input"},
		func(ctx context.Context, a struct {
			Kind          string      `json:"kind" jsonschema:"enum=confirm,enum=input"`
			Prompt        string      `json:"prompt"`
			Secret        bool        `json:"secret,omitempty"`
			Options       []askOption `json:"options,omitempty"`
			AllowFreeText bool        `json:"allow_free_text,omitempty"`
		}) (octet.Result, error) {
			if a.Kind == "confirm" {
				res, err := ext.UI.Confirm(ctx, a.Prompt)
				if err != nil {
					return octet.Result{}, err
				}
				return octet.Text("asked").WithStructured(map[string]any{"answer": res.Confirmed}), nil
			}
			o := octet.UIRequestInputOptions{Secret: a.Secret}
			for _, op := range a.Options {
				o.Options = append(o.Options, protocol.InputOption{Value: op.Value, Label: op.Label, Description: op.Description})
			}
			if a.AllowFreeText {
				o.AllowFreeText = &a.AllowFreeText
			}
			res, err := ext.UI.RequestInput(ctx, a.Prompt, o)
			if err != nil {
				return octet.Result{}, err
			}
			var v *string
			if res.Value.Valid {
				v = &res.Value.Value
			}
			if a.Secret {
				var h any
				if v != nil {
					h = digest([]byte(*v))
				}
				return octet.Text("asked").WithStructured(map[string]any{"answer_sha256": h}), nil
			}
			return octet.Text("asked").WithStructured(map[string]any{"answer": v}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "secret", Description: "Digest of a brokered secret"},
		func(ctx context.Context, a struct {
			Name string `json:"name"`
		}) (octet.Result, error) {
			v, err := ext.Secrets.Get(ctx, protocol.SecretName(a.Name))
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("secret").WithStructured(map[string]any{"sha256": digest([]byte(v.Value))}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "present", Description: "Publish a snapshot with n running activities"},
		func(ctx context.Context, a struct {
			Revision   int64 `json:"revision"`
			Activities int   `json:"activities" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			acts := make([]protocol.Activity, a.Activities)
			for i := range acts {
				acts[i] = protocol.Activity{ID: "a" + itoa(i), Label: "activity " + itoa(i), State: "running"}
			}
			snap := protocol.Snapshot{Revision: a.Revision, Activities: acts, Actions: []protocol.Action{}}
			if err := ext.Presentation.Update(ctx, snap); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("presented"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "spawn_child", Description: "Spawn one bounded child and wait briefly"},
		func(ctx context.Context, a struct {
			TaskName string `json:"task_name"`
			Message  string `json:"message"`
			Key      string `json:"key"`
		}) (octet.Result, error) {
			child, err := ext.Agents.Spawn(ctx, protocol.Name48(a.TaskName), a.Message, octet.AgentsSpawnOptions{
				IdempotencyKey: a.Key,
				Policy: protocol.AgentPolicy{Tools: []string{"read"}, MaxDepth: 1, MaxConcurrentChildren: 1, MaxTurns: 1,
					MaxCostMicrodollars: 0, MaxOutputBytes: 4096, TimeoutMS: 10000},
			})
			if err != nil {
				return octet.Result{}, err
			}
			settled, err := ext.Agents.Wait(ctx, octet.AgentsWaitOptions{TimeoutMS: 1000})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("spawned").WithStructured(map[string]any{"agent_id": child.AgentID, "timed_out": settled.TimedOut}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "kv_commit", Description: "Pass through to the KV commit"},
		func(ctx context.Context, a struct {
			Preconditions []json.RawMessage `json:"preconditions"`
			Writes        []json.RawMessage `json:"writes"`
		}) (octet.Result, error) {
			// The arguments are the wire's members as given, decoded by the protocol types.
			var p protocol.KVCommitParams
			raw, _ := json.Marshal(map[string]any{"preconditions": a.Preconditions, "writes": a.Writes})
			if err := json.Unmarshal(raw, &p); err != nil {
				return octet.Result{}, octet.Fail(protocol.CodeInvalidParams, "kv_commit arguments: "+err.Error(), nil)
			}
			res, err := ext.KV.Commit(ctx, p.Writes, octet.KVCommitOptions{Preconditions: p.Preconditions})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("committed").WithStructured(res), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "kv_get", Description: "Pass through to the KV get"},
		func(ctx context.Context, a struct {
			Namespace string `json:"namespace"`
			Key       string `json:"key"`
		}) (octet.Result, error) {
			res, err := ext.KV.Get(ctx, a.Key, octet.KVGetOptions{Namespace: a.Namespace})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("read").WithStructured(res), nil
		})
}

// askOption is one choice ask offers (protocol.InputOption as the tool's own parameter,
// its description optional).
type askOption struct {
	Value       string  `json:"value"`
	Label       string  `json:"label"`
	Description *string `json:"description,omitempty"`
}
