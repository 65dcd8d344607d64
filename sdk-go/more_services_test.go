package octet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
	"github.com/octet-kit/octet/sdk-go/octettest"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// serving starts ext with one extra tool, run, whose body the test supplies, so a
// service can be exercised from inside a real handler.
func serving(t *testing.T, body func(ctx context.Context, ext *octet.Extension) (any, error), script octettest.Script) *octettest.Host {
	t.Helper()
	ext := testExtension(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "run", Description: "test body"}, func(ctx context.Context, _ struct{}) (octet.Result, error) {
		v, err := body(ctx, ext)
		if err != nil {
			return octet.Result{}, err
		}
		return octet.Text("ok").WithStructured(map[string]any{"v": v}), nil
	})
	m := manifest()
	c := m["contributes"].(map[string]any)
	c["tools"] = append(c["tools"].([]string), "run")
	return octettest.Start(t, ext, octettest.Options{Manifest: m, Script: script})
}

func TestPolicyWithApprovalToken(t *testing.T) {
	token := strings.Repeat("ab", 32)
	var seen []string
	h := serving(t, func(ctx context.Context, ext *octet.Extension) (any, error) {
		intent := protocol.PolicyIntent{Kind: "external_side_effect", Operation: "browser.submit_form"}
		d, err := ext.Policy.Evaluate(ctx, intent)
		if err != nil || d.Decision != "ask" || d.ApprovalToken == nil || *d.ApprovalToken != token {
			return nil, err
		}
		if _, err := ext.Policy.Evaluate(ctx, intent, octet.PolicyEvaluateOptions{ApprovalToken: octet.Ptr("not-hex")}); err == nil {
			return nil, octet.Fail(1, "a malformed token was sent", nil)
		}
		d, err = ext.Policy.Evaluate(ctx, intent, octet.PolicyEvaluateOptions{ApprovalToken: d.ApprovalToken})
		return d.Decision, err
	}, octettest.Script{Policy: func(intent map[string]any, tok string) map[string]any {
		seen = append(seen, tok)
		if tok == token {
			return map[string]any{"decision": "allow"}
		}
		return map[string]any{"decision": "ask", "approval_token": token}
	}})
	res, err := h.CallTool(context.Background(), "run", nil)
	if err != nil || res.StructuredContent["v"] != "allow" {
		t.Fatalf("%+v %v", res, err)
	}
	if len(seen) != 2 || seen[0] != "" || seen[1] != token {
		t.Fatalf("host saw tokens %q", seen)
	}
}

// The bounds are the schema's, checked by Send's validator before anything is sent.
func TestAgentBoundsAreCheckedLocally(t *testing.T) {
	type spawn struct {
		task, message string
		opts          octet.AgentsSpawnOptions
	}
	good := spawn{"inspect", "look", octet.AgentsSpawnOptions{IdempotencyKey: "k1", Policy: protocol.AgentPolicy{Tools: []string{"read"},
		MaxDepth: 1, MaxConcurrentChildren: 1, MaxTurns: 1, MaxOutputBytes: 100, TimeoutMS: 1000, MaxTokens: protocol.Nullable[int64]{}}}}
	h := serving(t, func(ctx context.Context, ext *octet.Extension) (any, error) {
		small := int64(500)
		for _, bad := range []func(a *spawn){
			func(a *spawn) { a.task = "Bad Name" },
			func(a *spawn) { a.opts.Policy.MaxTokens = protocol.NullableOf(small) },
			func(a *spawn) { a.opts.Policy.Tools = []string{"read", "read"} },
			// max_depth is a schema const: the generated encoder always writes 1.
			func(a *spawn) { a.message = "" },
		} {
			a := good
			a.opts.Policy.Tools = slices.Clone(good.opts.Policy.Tools)
			bad(&a)
			if _, err := ext.Agents.Spawn(ctx, protocol.Name48(a.task), a.message, a.opts); err == nil {
				return nil, octet.Fail(1, "bad spawn accepted: "+a.task, nil)
			}
		}
		if _, err := ext.Agents.Wait(ctx, octet.AgentsWaitOptions{TimeoutMS: 60001}); err == nil {
			return nil, octet.Fail(1, "wait timeout over the bound accepted", nil)
		}
		child, err := ext.Agents.Spawn(ctx, protocol.Name48(good.task), good.message, good.opts)
		if err != nil {
			return nil, err
		}
		again, err := ext.Agents.Spawn(ctx, protocol.Name48(good.task), good.message, good.opts)
		if err != nil || again.AgentID != child.AgentID || again.Created {
			return nil, octet.Fail(1, "idempotent spawn returned a new child", nil)
		}
		w, err := ext.Agents.Wait(ctx)
		if err != nil {
			return nil, err
		}
		return len(w.Agents), nil
	}, octettest.Script{})
	res, err := h.CallTool(context.Background(), "run", nil)
	if err != nil || res.StructuredContent["v"] != 1.0 {
		t.Fatalf("%+v %v", res, err)
	}
	if n := len(h.Received("agent/spawn")); n != 2 {
		t.Fatalf("%d spawns reached the host, want 2 (the bad ones are refused locally)", n)
	}
}

func TestKVPreconditions(t *testing.T) {
	h := serving(t, func(ctx context.Context, ext *octet.Extension) (any, error) {
		put := protocol.KVCommitParams{Writes: []protocol.KVWrite{{KVPut: &protocol.KVPut{Namespace: "sdk-test", Key: "k", Value: json.RawMessage(`{"n":1}`)}}},
			Preconditions: []protocol.KVPrecondition{{KVExpectAbsent: &protocol.KVExpectAbsent{Namespace: "sdk-test", Key: "k", Absent: true}}}}
		if _, err := ext.KV.Commit(ctx, put.Writes, octet.KVCommitOptions{Preconditions: put.Preconditions}); err != nil {
			return nil, err
		}
		_, err := ext.KV.Commit(ctx, put.Writes, octet.KVCommitOptions{Preconditions: put.Preconditions}) // the key now exists: conflict
		var we *jsonrpc.Error
		if !asError(err, &we) || we.Code != protocol.CodeKVConflict {
			return nil, octet.Fail(1, "second absent-commit did not conflict", nil)
		}
		got, err := ext.KV.Get(ctx, "k")
		return string(got.Value), err
	}, octettest.Script{})
	res, err := h.CallTool(context.Background(), "run", nil)
	if err != nil || res.StructuredContent["v"] != `{"n":1}` {
		t.Fatalf("%+v %v", res, err)
	}
}

func asError(err error, target **jsonrpc.Error) bool {
	e, ok := err.(*jsonrpc.Error)
	if ok {
		*target = e
	}
	return ok
}

func TestLoggerWritesJSONLines(t *testing.T) {
	var buf bytes.Buffer
	octet.NewLogger(&buf, slog.LevelInfo).Info("hello", "k", 1)
	var line map[string]any
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatalf("%q: %v", buf.String(), err)
	}
	if line["msg"] != "hello" || line["level"] != "info" || line["k"] != 1.0 ||
		!regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`).MatchString(line["ts"].(string)) {
		t.Fatalf("log line = %v", line)
	}
}

// TestHostResultsAreCheckedAgainstTheSchema: a host answer of the wrong shape is refused
// with a HostResultError naming the method and the fault, never decoded into zero values.
func TestHostResultsAreCheckedAgainstTheSchema(t *testing.T) {
	for _, c := range []struct {
		what   string
		result map[string]any
		fault  string
	}{
		{"an unknown decision", map[string]any{"decision": "maybe"}, "decision"},
		{"a missing decision", map[string]any{}, "decision"},
		{"an unknown field", map[string]any{"decision": "allow", "extra": 1}, "extra"},
		{"a token of the wrong type", map[string]any{"decision": "ask", "approval_token": 7}, "approval_token"},
		{"a token with allow", map[string]any{"decision": "allow", "approval_token": strings.Repeat("ab", 32)}, "only with ask"},
	} {
		t.Run(c.what, func(t *testing.T) {
			var got error
			h := serving(t, func(ctx context.Context, ext *octet.Extension) (any, error) {
				_, got = ext.Policy.Evaluate(ctx, protocol.PolicyIntent{Kind: "k", Operation: "op"})
				return "done", nil
			}, octettest.Script{Policy: func(map[string]any, string) map[string]any { return c.result }})
			if _, err := h.CallTool(context.Background(), "run", nil); err != nil {
				t.Fatal(err)
			}
			var hr *octet.HostResultError
			if !errors.As(got, &hr) || hr.Method != "policy/evaluate" || !strings.Contains(hr.Reason, c.fault) {
				t.Fatalf("EvaluatePolicy with a host result of %s: %v; want a HostResultError naming %q", c.what, got, c.fault)
			}
		})
	}
}
