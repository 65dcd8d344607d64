package octet_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/octettest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

func fixtureBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

var _ = behaviour("ArtifactsInlineAndPath", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	before, sentBefore := len(h.Artifacts()), len(h.Received("artifact/publish"))
	for _, mode := range []string{"inline", "path"} {
		res, err := h.CallTool(ctx, "publish", map[string]any{"bytes": 1000, "mode": mode})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		sum := sha256.Sum256(fixtureBytes(1000))
		if res.StructuredContent["sha256"] != hex.EncodeToString(sum[:]) || res.StructuredContent["size"] != 1000.0 {
			t.Fatalf("%s: %v", mode, res.StructuredContent)
		}
	}
	arts := h.Artifacts()[before:]
	if len(arts) != 2 || !bytes.Equal(arts[1].Data, fixtureBytes(1000)) {
		t.Fatalf("host holds %d new artifacts", len(arts))
	}
	// Over the inline limit, traversal and absolute paths are refused locally.
	wireError(t, errOnly(h.CallTool(ctx, "publish", map[string]any{"bytes": 256<<10 + 1, "mode": "inline"})), -32602)
	for _, p := range []string{"../escape.bin", "/etc/passwd", "a/../../b"} {
		we := wireError(t, errOnly(h.CallTool(ctx, "publish", map[string]any{"bytes": 1, "mode": "path", "path": p})), -32602)
		if !strings.Contains(we.Message, p) {
			t.Fatalf("refusal does not name the path: %v", we)
		}
	}
	if n := len(h.Received("artifact/publish")) - sentBefore; n != 2 {
		t.Fatalf("%d artifact/publish frames sent; refused ones must not reach the host", n)
	}
})

var _ = behaviour("DynamicToolsRevisions", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	var base int // revisions earlier behaviours committed
	for i := 1; i <= 10; i++ {
		res, err := h.CallTool(ctx, "register_dynamic", map[string]any{"name": "dyn", "text": strings.Repeat("v", i)})
		if err != nil {
			t.Fatalf("register %d: %v", i, err)
		}
		rev := int(res.StructuredContent["revision"].(float64))
		if i == 1 {
			base = rev - 1
		}
		if rev != base+i {
			t.Fatalf("register %d answered revision %d, want %d", i, rev, base+i)
		}
	}
	call := func(rev int) (octettest.ToolResult, error) {
		var res octettest.ToolResult
		err := h.Call(ctx, "tool/call", map[string]any{"name": "dyn", "arguments": map[string]any{}, "catalog_revision": rev}, &res)
		return res, err
	}
	// The last 8 revisions are retained; each still runs its own handler.
	for i := 3; i <= 10; i++ {
		res, err := call(base + i)
		if err != nil || res.Text() != strings.Repeat("v", i) {
			t.Fatalf("revision %d: %+v %v", base+i, res, err)
		}
	}
	for _, rev := range []int{base + 2, base + 11} {
		we := wireError(t, errOnly(call(rev)), -32602)
		if !strings.Contains(we.Message, "revision") {
			t.Fatalf("%v", we)
		}
	}
	// Bootstrap tools stay in every catalog.
	if err := h.Call(ctx, "tool/call", map[string]any{"name": "echo", "arguments": map[string]any{"value": 1}, "catalog_revision": base + 10}, nil); err != nil {
		t.Fatal(err)
	}
})

var _ = behaviour("AskAndSecrets", func(t *testing.T, h *octettest.Host) {
	ctx := context.Background()
	res, err := h.CallTool(ctx, "ask", map[string]any{"kind": "confirm", "prompt": "sure?"})
	if err != nil || res.StructuredContent["answer"] != true {
		t.Fatalf("%+v %v", res, err)
	}
	res, err = h.CallTool(ctx, "ask", map[string]any{"kind": "input", "prompt": "name?"})
	if err != nil || res.StructuredContent["answer"] != scriptedInput {
		t.Fatalf("%+v %v", res, err)
	}
	wireError(t, errOnly(h.CallTool(ctx, "ask", map[string]any{"kind": "input", "prompt": "   "})), -32602)
	res, err = h.CallTool(ctx, "secret", map[string]any{"name": "token"})
	sum := sha256.Sum256([]byte("s3cret"))
	if err != nil || res.StructuredContent["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("%+v %v", res, err)
	}
	wireError(t, errOnly(h.CallTool(ctx, "secret", map[string]any{"name": "missing"})), -32004)
	for _, p := range h.Received("input/request") {
		if p["params"].(map[string]any)["parent_request_id"] == nil {
			t.Fatal("input/request without parent_request_id")
		}
	}
})

func TestServicesNeedTheirFeatures(t *testing.T) {
	ext := testExtension(octet.Options{})
	octettest.Start(t, ext, octettest.Options{Manifest: manifest(), OptionalFeatures: []string{}})
	ctx := context.Background()
	if _, err := ext.Secrets.Get(ctx, "token"); err == nil || !strings.Contains(err.Error(), `"secrets"`) {
		t.Fatalf("GetSecret without the feature: %v", err)
	}
	if _, err := ext.KV.Get(ctx, "k"); err == nil || !strings.Contains(err.Error(), `"kv"`) {
		t.Fatalf("KV.Get without the feature: %v", err)
	}
	if err := ext.Progress.Report(ctx, octet.StatusMessage("x")); err == nil {
		t.Fatal("Progress without request_progress")
	}
}

func TestServicesOutsideAHandlerNeedAParent(t *testing.T) {
	ext := testExtension(octet.Options{})
	octettest.Start(t, ext, octettest.Options{Manifest: manifest()})
	ctx := context.Background()
	if _, err := ext.UI.RequestInput(ctx, "hi"); err == nil || !strings.Contains(err.Error(), "WithParent") {
		t.Fatalf("RequestInput outside a handler: %v", err)
	}
	if _, err := ext.Secrets.Get(octet.WithParent(ctx, jsonrpcID(99)), "token"); err == nil || !strings.Contains(err.Error(), "not a host request") {
		t.Fatalf("unknown explicit parent: %v", err)
	}
}

func TestPresentationLimitsAndRevisions(t *testing.T) {
	ext := testExtension(octet.Options{})
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest()})
	ctx := context.Background()
	snap := protocol.Snapshot{Revision: 1, Activities: []protocol.Activity{}, Actions: []protocol.Action{}}
	if err := ext.Presentation.Update(ctx, snap); err != nil {
		t.Fatal(err)
	}
	if err := ext.Presentation.Update(ctx, snap); err == nil || !strings.Contains(err.Error(), "does not increase") {
		t.Fatalf("repeated revision: %v", err)
	}
	snap.Revision = 2
	snap.Activities = make([]protocol.Activity, 129)
	if err := ext.Presentation.Update(ctx, snap); err == nil || !strings.Contains(err.Error(), "$.snapshot.activities: want at most 128 items, got 129") {
		t.Fatalf("too many activities: %v", err)
	}
	waitFor(t, func() bool { return len(h.Received("presentation/update")) >= 1 })
	if n := len(h.Received("presentation/update")); n != 1 {
		t.Fatalf("%d updates sent, want 1", n)
	}
	snap.Revision, snap.Activities = 3, []protocol.Activity{}
	if err := ext.Presentation.Update(ctx, snap); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return len(h.Received("presentation/update")) >= 2 })
	if got := h.Received("presentation/update")[1]["params"].(map[string]any)["snapshot"].(map[string]any)["revision"]; got != 3.0 {
		t.Fatalf("Update sent revision %v, want 3", got)
	}
}

func TestLifecycleSubscription(t *testing.T) {
	ext := testExtension(octet.Options{})
	got := make(chan octet.LifecycleNotification, 2)
	ext.OnLifecycle("turn_settled", func(ctx context.Context, ev octet.LifecycleNotification) { got <- ev })
	var res map[string]any
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest(), SkipInitialize: true})
	res, err := h.Initialize()
	if err != nil {
		t.Fatal(err)
	}
	subs := res["protocol"].(map[string]any)["lifecycle_events"].([]any)
	if len(subs) != 1 || subs[0] != "turn/settled" {
		t.Fatalf("subscription = %v", subs)
	}
	if err := h.Notify("turn/settled", map[string]any{"session_id": "s", "turn_id": "t1", "outcome": "completed"}); err != nil {
		t.Fatal(err)
	}
	ev := <-got
	if ev.Method != "turn/settled" || ev.TurnID != "t1" || ev.Outcome != "completed" {
		t.Fatalf("event = %+v", ev)
	}
}

// Contributions are ui operations, as in Python and TypeScript; a status surface the manifest
// does not declare is refused before anything is sent.
func TestContributions(t *testing.T) {
	ext := testExtension(octet.Options{})
	h := octettest.Start(t, ext, octettest.Options{Manifest: manifest()})
	ctx := context.Background()
	if err := ext.UI.ContributeStatus(ctx, "footer", "x"); err == nil || !strings.Contains(err.Error(), `ContributeStatus: surface "footer" is not declared`) {
		t.Fatalf("undeclared surface: %v", err)
	}
	items := []octet.ContextItem{{Label: "l", Content: "c", Placement: "prompt_prefix"}}
	for _, send := range []func() error{
		func() error { return ext.UI.ContributeStatus(ctx, "status", "one") },
		func() error { return ext.UI.ContributeStatus(ctx, "status", "two") },
		func() error { return ext.UI.ContributeContext(ctx, items) },
		func() error { return ext.UI.ContributeContext(ctx, items) },
	} {
		if err := send(); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, func() bool {
		return len(h.Received("status/contribution")) == 2 && len(h.Received("context/contribution")) == 2
	})
	if got := h.Received("status/contribution")[1]["params"].(map[string]any)["text"]; got != "two" {
		t.Fatalf("the second status sent %v", got)
	}
}
