package services_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

const policyScript = `
[[policy]]
kind = "external_side_effect"
operation = "browser.*"
decision = "ask"
approve = true
reason = "publishing needs approval"
[[policy]]
kind = "read"
decision = "allow"
[[policy]]
operation = "rm"
decision = "ask"
`

type decision struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
	Token    string `json:"approval_token"`
}

var submitIntent = map[string]any{"kind": "external_side_effect", "operation": "browser.submit_form",
	"target": map[string]any{"origin": "https://example.com", "label": "Publish"}, "data_classes": []string{"user_text"},
	"adapter_hints": map[string]any{"read_only": true, "destructive": false}}

func evalParams(parentID any, intent map[string]any, token string) map[string]any {
	p := map[string]any{"parent_request_id": parentID, "intent": intent}
	if token != "" {
		p["approval_token"] = token
	}
	return p
}

func TestPolicyRules(t *testing.T) {
	e := newEnv(t, mustScript(t, policyScript))
	var d decision
	e.ok("policy/evaluate", evalParams(7, map[string]any{"kind": "read", "operation": "fs.read"}, ""), &d)
	if d.Decision != "allow" || d.Token != "" {
		t.Fatalf("read: %+v", d)
	}
	// Hints never lower policy: a "read_only" hint on an unmatched kind is still denied.
	e.ok("policy/evaluate", evalParams(7, map[string]any{"kind": "write", "operation": "x", "adapter_hints": map[string]any{"read_only": true}}, ""), &d)
	if d.Decision != "deny" {
		t.Fatalf("unmatched: %+v", d)
	}
	// ask without approve: no token.
	e.ok("policy/evaluate", evalParams(7, map[string]any{"kind": "any", "operation": "rm"}, ""), &d)
	if d.Decision != "ask" || d.Token != "" {
		t.Fatalf("ask: %+v", d)
	}
	// Without negotiated approvals, an approvable ask carries no token.
	delete(e.c.Features, "approvals")
	e.ok("policy/evaluate", evalParams(7, submitIntent, ""), &d)
	if d.Decision != "ask" || d.Token != "" {
		t.Fatalf("ask without approvals: %+v", d)
	}
	e.fails("policy/evaluate", evalParams(7, submitIntent, strings.Repeat("a", 64)), -32602)
	e.c.Features["approvals"] = true
	// Malformed.
	e.fails("policy/evaluate", evalParams(7, map[string]any{"kind": "", "operation": "x"}, ""), -32602)
	e.fails("policy/evaluate", evalParams(7, map[string]any{"kind": "k", "operation": "x", "target": []int{1}}, ""), -32602)
	e.fails("policy/evaluate", evalParams(7, map[string]any{"kind": "k", "operation": "x", "bogus": 1}, ""), -32602)
	e.fails("policy/evaluate", evalParams(7, submitIntent, "ABC"), -32602)
	e.fails("policy/evaluate", evalParams(99, submitIntent, ""), -32002)
}

func TestApprovalTokens(t *testing.T) {
	e := newEnv(t, mustScript(t, policyScript))
	ask := func() string {
		t.Helper()
		var d decision
		e.ok("policy/evaluate", evalParams(7, submitIntent, ""), &d)
		if d.Decision != "ask" || len(d.Token) != 64 {
			t.Fatalf("ask: %+v", d)
		}
		return d.Token
	}
	redeem := func(parentID any, intent map[string]any, tok string) string {
		t.Helper()
		var d decision
		e.ok("policy/evaluate", evalParams(parentID, intent, tok), &d)
		if d.Token != "" {
			t.Fatal("a token came back with a non-ask decision")
		}
		return d.Decision
	}
	// Approved retry with the same intent allows exactly once.
	tok := ask()
	// Same meaning, different key order and number spelling: still the same intent.
	reordered := map[string]any{"operation": "browser.submit_form", "kind": "external_side_effect",
		"adapter_hints": map[string]any{"destructive": false, "read_only": true}, "data_classes": []string{"user_text"},
		"target": map[string]any{"label": "Publish", "origin": "https://example.com"}}
	if got := redeem(7, reordered, tok); got != "allow" {
		t.Fatalf("redeem: %s", got)
	}
	if got := redeem(7, submitIntent, tok); got != "deny" {
		t.Fatalf("reuse: %s", got)
	}
	// Changed intent denies and burns the token.
	tok = ask()
	changed := map[string]any{"kind": "external_side_effect", "operation": "browser.submit_form", "target": map[string]any{"origin": "https://evil.example"}}
	if got := redeem(7, changed, tok); got != "deny" {
		t.Fatalf("changed intent: %s", got)
	}
	if got := redeem(7, submitIntent, tok); got != "deny" {
		t.Fatalf("token survived a mismatch: %s", got)
	}
	// Another parent denies.
	tok = ask()
	e.setActive(jsonrpc.IntID(8), defaultOwner(), true)
	if got := redeem(8, submitIntent, tok); got != "deny" {
		t.Fatalf("other parent: %s", got)
	}
	// Another generation denies.
	tok = ask()
	e.c.Generation = 2
	e.setActive(parent, services.Owner{SessionID: "sess-1", ExtensionInstanceID: "inst-1", ProcessGeneration: 2}, true)
	if got := redeem(7, submitIntent, tok); got != "deny" {
		t.Fatalf("other generation: %s", got)
	}
	// Expiry.
	tok = ask()
	e.clock.Advance(61 * time.Second)
	if got := redeem(7, submitIntent, tok); got != "deny" {
		t.Fatalf("expired: %s", got)
	}
	tok = ask()
	e.clock.Advance(59 * time.Second)
	if got := redeem(7, submitIntent, tok); got != "allow" {
		t.Fatalf("unexpired: %s", got)
	}
	// Tokens are stored only as digests.
	var n int
	if err := e.st.DB().QueryRowContext(context.Background(), `SELECT count(*) FROM approvals WHERE token_sha256 = ?`, tok).Scan(&n); err != nil && err != sql.ErrNoRows {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("a raw token is stored")
	}
}
