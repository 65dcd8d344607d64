package services_test

import (
	"testing"

	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The script's lifecycle entries and what ScriptedLifecycle returns are the protocol's one
// lifecycle occurrence type, the type the Go SDK hands its handlers.
var (
	_ []protocol.LifecycleNotification = (&script.Script{}).Lifecycle
	_                                  = func(s *script.Script) []protocol.LifecycleNotification {
		e, _ := services.ScriptedLifecycle(s)
		return e
	}
)

func TestLifecycleParams(t *testing.T) {
	p, err := services.LifecycleParams(protocol.LifecycleNotification{Method: protocol.LifecycleEventToolSettled, SessionID: "s", TurnID: "t", CallID: "c", Name: "n", Outcome: "failed", IsError: true})
	if err != nil || p["is_error"] != true || p["outcome"] != "failed" || len(p) != 6 {
		t.Fatalf("params %v %v", p, err)
	}
	p, err = services.LifecycleParams(protocol.LifecycleNotification{Method: protocol.LifecycleEventTurnStarted, SessionID: "s", TurnID: "t", Name: "ignored"})
	if err != nil || len(p) != 2 {
		t.Fatalf("turn/started carries %v (%v)", p, err)
	}
	for _, bad := range []protocol.LifecycleNotification{
		{Method: "session/exploded", SessionID: "s"},
		{Method: "session/started"},
		{Method: "session/settled", SessionID: "s", Outcome: "meh"},
		{Method: "tool/started", SessionID: "s", TurnID: "t"},
	} {
		if _, err := services.LifecycleParams(bad); err == nil {
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
