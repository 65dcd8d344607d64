// Command sdkext is an extension written with the Go SDK (sdk-go) for the
// services integration tests: its "exercise" tool uses every service the way
// an author would and reports what happened as JSON (never a secret value).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func code(err error) int64 {
	var we *jsonrpc.Error
	if errors.As(err, &we) {
		return we.Code
	}
	if err != nil {
		return -1
	}
	return 0
}

func main() {
	ext := octet.New(octet.Options{})
	ext.RawTool(octet.ToolSpec{Name: "exercise", Description: "use every host service", Parameters: map[string]any{"type": "object"}}, func(ctx context.Context, _ json.RawMessage) (octet.Result, error) {
		out := map[string]any{}
		secret, err := ext.Secrets.Get(ctx, "api.token")
		out["secret_len"], out["secret_code"] = len(secret.Value), code(err)
		_, err = ext.Secrets.Get(ctx, "absent.token")
		out["absent_secret_code"] = code(err)

		tx := ext.KV.Transaction().ExpectAbsent("k")
		_ = tx.Put("k", json.RawMessage(`{"b":2,"a":1}`), octet.KVNamespace{Namespace: "sdkext.cache"})
		_ = tx.Put("k", 1)
		_, err = tx.Commit(ctx)
		out["kv_commit_code"] = code(err)
		got, err := ext.KV.Get(ctx, "k", octet.KVGetOptions{Namespace: "sdkext.cache"})
		out["kv_get_code"], out["kv_found"] = code(err), got.Found
		if got.Version != nil {
			out["kv_version"] = *got.Version
		}
		_, err = ext.KV.Put(ctx, "k", 1, octet.KVNamespace{Namespace: "other"})
		out["kv_foreign_code"] = code(err)
		_, err = ext.KV.Transaction().ExpectAbsent("k").Delete("k").Commit(ctx)
		out["kv_conflict_code"] = code(err)

		png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 4096)...)
		os.WriteFile(filepath.Join(octet.ScratchDir(), "shot.png"), png, 0o600)
		var art protocol.ArtifactPublishResult
		file, err := octet.ScratchArtifact("image/png", "shot.png", "shot.png")
		if err == nil {
			art, err = ext.Artifacts.Publish(ctx, file)
		}
		out["artifact_code"], out["artifact_size"] = code(err), art.Size

		intent := protocol.PolicyIntent{Kind: "net", Operation: "fetch", Target: json.RawMessage(`{"url":"https://example.com"}`)}
		ask, err := ext.Policy.Evaluate(ctx, intent)
		out["policy_first"], out["policy_code"] = ask.Decision, code(err)
		if ask.ApprovalToken != nil {
			token := octet.PolicyEvaluateOptions{ApprovalToken: ask.ApprovalToken}
			again, _ := ext.Policy.Evaluate(ctx, intent, token)
			reuse, _ := ext.Policy.Evaluate(ctx, intent, token)
			out["policy_redeemed"], out["policy_reused"] = again.Decision, reuse.Decision
		}

		spawn, err := ext.Agents.Spawn(ctx, "probe", "look", octet.AgentsSpawnOptions{IdempotencyKey: "probe-1", Policy: protocol.AgentPolicy{Tools: []string{"read"},
			MaxDepth: 1, MaxConcurrentChildren: 2, MaxTurns: 4, MaxCostMicrodollars: 1000, MaxOutputBytes: 100, TimeoutMS: 60000}})
		out["spawn_code"], out["spawn_created"] = code(err), spawn.Created
		waited, err := ext.Agents.Wait(ctx, octet.AgentsWaitOptions{TimeoutMS: 1000})
		out["wait_code"] = code(err)
		if len(waited.Agents) == 1 && waited.Agents[0].Output != nil {
			out["agent_output"] = *waited.Agents[0].Output
		}

		typed, err := ext.UI.RequestInput(ctx, "Password:", octet.UIRequestInputOptions{Secret: true})
		out["input_code"], out["input_answered"] = code(err), typed.Value.Valid
		out["notify_code"] = code(ext.UI.Notify(ctx, "exercised", octet.UINotifyOptions{Level: "success"}))

		b, _ := json.Marshal(out)
		res := octet.ToolResult(octet.TextContent(string(b)))
		if err == nil && art.ArtifactID != "" {
			res = octet.ToolResult(octet.TextContent(string(b)), octet.ImageContent(art.ArtifactID, "image/png", "shot"))
		}
		return res, nil
	})
	ext.Run()
}
