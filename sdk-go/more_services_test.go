package octet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"regexp"
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
		d, err := ext.EvaluatePolicy(ctx, intent, "")
		if err != nil || d.Decision != "ask" || d.ApprovalToken != token {
			return nil, err
		}
		if _, err := ext.EvaluatePolicy(ctx, intent, "not-hex"); err == nil {
			return nil, octet.Fail(1, "a malformed token was sent", nil)
		}
		d, err = ext.EvaluatePolicy(ctx, intent, d.ApprovalToken)
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

func TestAgentBoundsAreCheckedLocally(t *testing.T) {
	good := octet.AgentSpawn{TaskName: "inspect", Message: "look", IdempotencyKey: "k1", Tools: []string{"read"},
		MaxDepth: 1, MaxConcurrentChildren: 1, MaxTurns: 1, MaxOutputBytes: 100, TimeoutMS: 1000}
	h := serving(t, func(ctx context.Context, ext *octet.Extension) (any, error) {
		small := int64(500)
		for _, bad := range []func(a *octet.AgentSpawn){
			func(a *octet.AgentSpawn) { a.TaskName = "Bad Name" },
			func(a *octet.AgentSpawn) { a.MaxTokens = &small },
			func(a *octet.AgentSpawn) { a.Tools = []string{"read", "read"} },
			func(a *octet.AgentSpawn) { a.MaxDepth = 2 },
			func(a *octet.AgentSpawn) { a.Message = "" },
		} {
			a := good
			bad(&a)
			if _, err := ext.SpawnAgent(ctx, a); err == nil {
				return nil, octet.Fail(1, "bad spawn accepted: "+a.TaskName, nil)
			}
		}
		if _, err := ext.WaitAgents(ctx, 60001); err == nil {
			return nil, octet.Fail(1, "wait timeout over the bound accepted", nil)
		}
		child, err := ext.SpawnAgent(ctx, good)
		if err != nil {
			return nil, err
		}
		again, err := ext.SpawnAgent(ctx, good)
		if err != nil || again.AgentID != child.AgentID || again.Created {
			return nil, octet.Fail(1, "idempotent spawn returned a new child", nil)
		}
		w, err := ext.WaitAgents(ctx, 0)
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
				_, got = ext.EvaluatePolicy(ctx, protocol.PolicyIntent{Kind: "k", Operation: "op"}, "")
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
