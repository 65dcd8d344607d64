package services_test

import (
	"testing"

	"github.com/octet-kit/octet/host/services"
)

func TestLifecycleParams(t *testing.T) {
	p, err := services.LifecycleEvent{Method: "tool/settled", SessionID: "s", TurnID: "t", CallID: "c", Name: "n", Outcome: "failed", IsError: true}.Params()
	if err != nil || p["is_error"] != true || p["outcome"] != "failed" || len(p) != 6 {
		t.Fatalf("params %v %v", p, err)
	}
	p, err = services.LifecycleEvent{Method: "turn/started", SessionID: "s", TurnID: "t", Name: "ignored"}.Params()
	if err != nil || len(p) != 2 {
		t.Fatalf("turn/started carries %v (%v)", p, err)
	}
	for _, bad := range []services.LifecycleEvent{
		{Method: "session/exploded", SessionID: "s"},
		{Method: "session/started"},
		{Method: "session/settled", SessionID: "s", Outcome: "meh"},
		{Method: "tool/started", SessionID: "s", TurnID: "t"},
	} {
		if _, err := bad.Params(); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if !services.Subscribed(nil, "turn/started") || services.Subscribed([]string{"session/started"}, "turn/started") {
		t.Error("subscription filter")
	}
	sc := mustScript(t, `
[[lifecycle]]
method = "session/started"
session_id = "s1"
[[lifecycle]]
method = "session/settled"
session_id = "s1"
outcome = "completed"
`)
	evs, err := services.ScriptedLifecycle(sc)
	if err != nil || len(evs) != 2 || evs[1].Outcome != "completed" {
		t.Fatalf("scripted %v %v", evs, err)
	}
}
