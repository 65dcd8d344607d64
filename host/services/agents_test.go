package services_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

const agentScript = `
[[agents]]
task_name = "inspect-catalog"
output = "found 3 tools"
turns = 2
input_tokens = 100
output_tokens = 40
cost_microdollars = 900
[[agents]]
task_name = "slow"
hang = true
[[agents]]
task_name = "broken"
state = "failed"
output = "crashed"
[[models]]
provider = "octet"
model = "scripted-large"
label = "Scripted large"
[[models]]
provider = "octet"
model = "scripted-small"
`

func spawnParams(task, key string) map[string]any {
	return map[string]any{"parent_request_id": 7, "task_name": task, "profile": "review", "fingerprint": strings.Repeat("ab", 32),
		"message": "Inspect the catalog.", "idempotency_key": key,
		"policy": map[string]any{"tools": []string{"read", "search"}, "max_depth": 1, "max_concurrent_children": 8, "max_turns": 8,
			"max_tokens": nil, "max_cost_microdollars": 200000, "max_output_bytes": 8, "timeout_ms": 300000}}
}

type spawnRes struct {
	AgentID string `json:"agent_id"`
	Session string `json:"session"`
	State   string `json:"state"`
	Created bool   `json:"created"`
}

type agentRec struct {
	AgentID        string `json:"agent_id"`
	TaskName       string `json:"task_name"`
	IdempotencyKey string `json:"idempotency_key"`
	State          string `json:"state"`
	Turns          int64  `json:"turns"`
	Output         *string
	TimedOut       bool `json:"timed_out"`
	Usage          struct {
		InputTokens int64 `json:"input_tokens"`
	} `json:"usage"`
	Policy struct {
		MaxTokens *int64 `json:"max_tokens"`
	} `json:"policy"`
}

type waitRes struct {
	TimedOut bool       `json:"timed_out"`
	Agents   []agentRec `json:"agents"`
}

func TestAgentLifecycle(t *testing.T) {
	e := newEnv(t, mustScript(t, agentScript))
	var s spawnRes
	e.ok("agent/spawn", spawnParams("inspect-catalog", "k1"), &s)
	if !s.Created || s.State != "running" || !strings.HasPrefix(s.Session, "agent-session:") {
		t.Fatalf("spawn %+v", s)
	}
	// Identical retry: the same child.
	var again spawnRes
	e.ok("agent/spawn", spawnParams("inspect-catalog", "k1"), &again)
	if again.Created || again.AgentID != s.AgentID {
		t.Fatalf("retry %+v", again)
	}
	// Same key, different input.
	diff := spawnParams("inspect-catalog", "k1")
	diff["message"] = "Something else."
	e.fails("agent/spawn", diff, -32002)

	var acc struct{ Accepted bool }
	e.ok("agent/message", map[string]any{"parent_request_id": 7, "target": s.AgentID, "message": "Include resources."}, &acc)
	if !acc.Accepted {
		t.Fatal("message not accepted")
	}
	e.fails("agent/follow_up", map[string]any{"parent_request_id": 7, "target": s.AgentID, "message": "more"}, -32002)

	var w waitRes
	e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 30000}, &w)
	if w.TimedOut || len(w.Agents) != 1 {
		t.Fatalf("wait %+v", w)
	}
	a := w.Agents[0]
	// Output is capped at max_output_bytes (8).
	if a.State != "settled" || a.Turns != 2 || a.Output == nil || *a.Output != "found 3 " || a.Usage.InputTokens != 100 || a.Policy.MaxTokens != nil {
		t.Fatalf("record %+v output %v", a, a.Output)
	}
	e.fails("agent/message", map[string]any{"parent_request_id": 7, "target": s.AgentID, "message": "late"}, -32002)
	// Follow-up resumes it.
	e.ok("agent/follow_up", map[string]any{"parent_request_id": 7, "target": s.Session, "message": "Summarise."}, &acc)
	var l struct{ Agents []agentRec }
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	if l.Agents[0].State != "running" {
		t.Fatalf("after follow-up: %+v", l.Agents[0])
	}
	e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 1}, &w)
	if w.Agents[0].Turns != 4 || w.Agents[0].State != "settled" {
		t.Fatalf("after second wait: %+v", w.Agents[0])
	}
	// Failed scripted child.
	e.ok("agent/spawn", spawnParams("broken", "k2"), &s)
	e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 1}, &w)
	if w.Agents[1].State != "failed" {
		t.Fatalf("broken child %+v", w.Agents[1])
	}
	// Records survive a new generation of the same instance (trees resume).
	e.c.Generation = 2
	e.setActive(parent, services.Owner{SessionID: "sess-1", ExtensionInstanceID: "inst-1", ProcessGeneration: 2}, true)
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	if len(l.Agents) != 2 {
		t.Fatalf("generation 2 sees %d records", len(l.Agents))
	}
	// Another session (owner) sees nothing, and cannot target them.
	e.setActive(parent, services.Owner{SessionID: "sess-9", ExtensionInstanceID: "inst-1", ProcessGeneration: 2}, true)
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	if len(l.Agents) != 0 {
		t.Fatalf("foreign owner sees %d records", len(l.Agents))
	}
	e.fails("agent/interrupt", map[string]any{"parent_request_id": 7, "target": s.AgentID}, -32002)
}

func TestAgentHangInterruptAndTimeout(t *testing.T) {
	e := newEnv(t, mustScript(t, agentScript))
	var s spawnRes
	e.ok("agent/spawn", spawnParams("slow", "h1"), &s)
	// wait blocks until its timer fires, then reports timed_out.
	done := make(chan waitRes)
	go func() {
		var w waitRes
		e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 5000}, &w)
		done <- w
	}()
	if d := <-e.timers.registered; d != 5*time.Second {
		t.Fatalf("wait timer %v", d)
	}
	e.timers.Fire()
	w := <-done
	if !w.TimedOut || w.Agents[0].State != "running" {
		t.Fatalf("wait %+v", w)
	}
	// An interrupt wakes a pending wait.
	go func() {
		var w waitRes
		e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 60000}, &w)
		done <- w
	}()
	<-e.timers.registered
	var ir struct{ Interrupted bool }
	e.ok("agent/interrupt", map[string]any{"parent_request_id": 7, "target": s.AgentID}, &ir)
	w = <-done
	if !ir.Interrupted || w.TimedOut || w.Agents[0].State != "interrupted" {
		t.Fatalf("interrupt %v wait %+v", ir, w)
	}
	e.ok("agent/interrupt", map[string]any{"parent_request_id": 7, "target": s.AgentID}, &ir)
	if ir.Interrupted {
		t.Fatal("interrupted twice")
	}
	// The policy deadline times a hanging child out on the router's clock.
	e.ok("agent/spawn", spawnParams("slow", "h2"), &s)
	e.clock.Advance(300 * time.Second)
	var l struct{ Agents []agentRec }
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	if l.Agents[1].State != "timed_out" || !l.Agents[1].TimedOut {
		t.Fatalf("deadline: %+v", l.Agents[1])
	}
	// A wait whose parent settles ends with -32002.
	e.ok("agent/spawn", spawnParams("slow", "h3"), &s)
	errc := make(chan *jsonrpc.Error)
	go func() {
		_, err := e.call("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 60000})
		errc <- err
	}()
	<-e.timers.registered
	e.r.ParentSettled(e.c, parent)
	if err := <-errc; err == nil || err.Code != -32002 {
		t.Fatalf("wait after parent settled: %v", err)
	}
}

func TestAgentBounds(t *testing.T) {
	e := newEnv(t, mustScript(t, agentScript))
	for i := 0; i < 8; i++ {
		e.ok("agent/spawn", spawnParams("slow", fmt.Sprintf("a%d", i)), nil)
	}
	err := e.fails("agent/spawn", spawnParams("slow", "a8"), -32002)
	if !strings.Contains(err.Message, "8 children are active") {
		t.Fatalf("message %q", err.Message)
	}
	// Settle them all by interrupting, then spawn up to the retention bound.
	var l struct{ Agents []agentRec }
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	for _, a := range l.Agents {
		e.ok("agent/interrupt", map[string]any{"parent_request_id": 7, "target": a.AgentID}, nil)
	}
	for i := 0; i < 30; i++ {
		e.ok("agent/spawn", spawnParams("inspect-catalog", fmt.Sprintf("b%d", i)), nil)
		e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 1}, nil)
	}
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	if len(l.Agents) != 32 || l.Agents[0].IdempotencyKey == "a0" {
		t.Fatalf("retained %d, oldest %s", len(l.Agents), l.Agents[0].IdempotencyKey)
	}
	// Malformed spawns.
	mut := func(f func(p map[string]any)) map[string]any {
		p := spawnParams("x", "m")
		f(p)
		return p
	}
	pol := func(k string, v any) map[string]any {
		return mut(func(p map[string]any) { p["policy"].(map[string]any)[k] = v })
	}
	bad := map[string]map[string]any{
		"task name":        mut(func(p map[string]any) { p["task_name"] = "Bad Name" }),
		"long task":        mut(func(p map[string]any) { p["task_name"] = strings.Repeat("a", 49) }),
		"fingerprint":      mut(func(p map[string]any) { p["fingerprint"] = "xyz" }),
		"empty message":    mut(func(p map[string]any) { p["message"] = "" }),
		"huge message":     mut(func(p map[string]any) { p["message"] = strings.Repeat("a", 131073) }),
		"empty key":        mut(func(p map[string]any) { p["idempotency_key"] = "" }),
		"no policy":        mut(func(p map[string]any) { delete(p, "policy") }),
		"depth 2":          pol("max_depth", 2),
		"no tools":         pol("tools", []string{}),
		"unknown tool":     pol("tools", []string{"fly"}),
		"repeated tool":    pol("tools", []string{"read", "read"}),
		"children 9":       pol("max_concurrent_children", 9),
		"turns 0":          pol("max_turns", 0),
		"tokens 999":       pol("max_tokens", 999),
		"tokens 64001":     pol("max_tokens", 64001),
		"missing tokens":   mut(func(p map[string]any) { delete(p["policy"].(map[string]any), "max_tokens") }),
		"negative cost":    pol("max_cost_microdollars", -1),
		"output 0":         pol("max_output_bytes", 0),
		"timeout 0":        pol("timeout_ms", 0),
		"unknown policy":   pol("max_children", 1),
		"string turns":     pol("max_turns", "8"),
		"fractional turns": pol("max_turns", 1.5),
	}
	for name, p := range bad {
		t.Run(name, func(t *testing.T) { e.fails("agent/spawn", p, -32602) })
	}
	e.fails("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 0}, -32602)
	e.fails("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 60001}, -32602)
	e.fails("agent/models", map[string]any{"parent_request_id": 7, "limit": 0}, -32602)
	e.fails("agent/models", map[string]any{"parent_request_id": 7, "limit": 201}, -32602)
	e.fails("agent/list", map[string]any{"parent_request_id": 99}, -32002)
	e.fails("agent/message", map[string]any{"parent_request_id": 7, "target": "agent_nope", "message": "x"}, -32002)
	// An ownerless parent cannot spawn.
	e.setActive(jsonrpc.IntID(3), services.Owner{}, true)
	p := spawnParams("x", "ownerless")
	p["parent_request_id"] = 3
	e.fails("agent/spawn", p, -32002)
	// Unknown model selection is rejected.
	p = spawnParams("x", "model")
	p["model_selection"] = map[string]any{"provider": "acme", "model": "big"}
	e.fails("agent/spawn", p, -32002)
}

func TestAgentModels(t *testing.T) {
	e := newEnv(t, mustScript(t, agentScript))
	var res struct {
		Models []map[string]string `json:"models"`
	}
	e.ok("agent/models", map[string]any{"parent_request_id": 7, "query": "LARGE", "limit": 50}, &res)
	if len(res.Models) != 1 || res.Models[0]["model"] != "scripted-large" {
		t.Fatalf("models %+v", res.Models)
	}
	e.ok("agent/models", map[string]any{"parent_request_id": 7, "limit": 1}, &res)
	if len(res.Models) != 1 {
		t.Fatalf("limit ignored: %+v", res.Models)
	}
}

func TestStopChildren(t *testing.T) {
	e := newEnv(t, mustScript(t, agentScript))
	e.ok("agent/spawn", spawnParams("inspect-catalog", "s2"), nil)
	e.ok("agent/wait", map[string]any{"parent_request_id": 7, "timeout_ms": 1}, nil) // settles s2
	e.ok("agent/spawn", spawnParams("slow", "s1"), nil)                              // hangs
	other := services.Owner{SessionID: "sess-2", ExtensionInstanceID: "inst-1", ProcessGeneration: 1}
	e.setActive(jsonrpc.IntID(8), other, true)
	p := spawnParams("slow", "s3")
	p["parent_request_id"] = 8
	e.ok("agent/spawn", p, nil)
	n, err := e.r.StopChildren(context.Background(), e.c, "sess-1")
	if err != nil || n != 1 {
		t.Fatalf("stopped %d, %v; want 1 (only sess-1's running child)", n, err)
	}
	n, err = e.r.StopChildren(context.Background(), e.c, "")
	if err != nil || n != 1 {
		t.Fatalf("stopped %d, %v; want 1 (sess-2's child)", n, err)
	}
	var l struct{ Agents []agentRec }
	e.ok("agent/list", map[string]any{"parent_request_id": 7}, &l)
	if l.Agents[0].State != "settled" || l.Agents[1].State != "interrupted" {
		t.Fatalf("records %+v", l.Agents)
	}
}
