package services_test

import (
	"context"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/script"
	"github.com/octet-kit/octet/host/services"
)

func mustScript(t *testing.T, text string) *script.Script {
	t.Helper()
	s, err := script.Parse("test.toml", []byte(text), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNotification(t *testing.T) {
	e := newEnv(t, nil)
	e.notify("notification", `{"message":"built","level":"success","title":"ci"}`)
	ev := e.eventsOf(services.EventNotification)
	if len(ev) != 1 || ev[0].Payload.(services.Notification).Message != "built" || ev[0].Extension != "demo" {
		t.Fatalf("events %+v", ev)
	}
	stored, _ := e.st.Events(context.Background(), "notification")
	if len(stored) != 1 || !contains(stored[0].Payload, `"built"`) {
		t.Fatalf("notification not recorded: %+v", stored)
	}
	for _, bad := range []string{
		`{"message":"x","level":"loud"}`,
		`{"message":"` + strings.Repeat("é", 4097) + `","level":"info"}`,
		`{"message":"\u001b[31mred","level":"info"}`,
		`{"level":"info"}`,
	} {
		e.notify("notification", bad)
		if len(e.eventsOf(services.EventNotification)) != 1 {
			t.Fatalf("invalid notification %s was forwarded", bad)
		}
	}
	if n := len(e.eventsOf(services.EventDiagnostic)); n != 4 {
		t.Fatalf("%d diagnostics for 4 invalid notifications", n)
	}
}

func TestContributions(t *testing.T) {
	e := newEnv(t, nil)
	e.notify("status/contribution", `{"surface":"status","text":"ready","priority":1,"style_role":null}`)
	e.notify("status/contribution", `{"surface":"footer","text":"x","priority":1}`) // not declared
	e.notify("context/contribution", `{"items":[{"label":"a","content":"b","placement":"system_suffix"}]}`)
	e.notify("context/contribution", `{"items":[{"label":"a","content":"b","placement":"middle"}]}`)
	if len(e.eventsOf(services.EventStatus)) != 1 || len(e.eventsOf(services.EventContext)) != 1 {
		t.Fatalf("status %d context %d", len(e.eventsOf(services.EventStatus)), len(e.eventsOf(services.EventContext)))
	}
	if d := e.lastDiagnostic(); !strings.Contains(d, "placement") {
		t.Errorf("diagnostic %q", d)
	}
}

func TestConfirmation(t *testing.T) {
	sc := mustScript(t, `
[[confirmations]]
match = "Deploy"
confirmed = true
[[confirmations]]
extension = "other"
confirmed = true
`)
	e := newEnv(t, sc)
	var res struct{ Confirmed bool }
	e.ok("confirmation/request", `{"message":"Deploy now?","parent_request_id":7}`, &res)
	if !res.Confirmed {
		t.Fatal("scripted confirmation not confirmed")
	}
	// No scripted answer (the second rule is for another extension): deny.
	e.ok("confirmation/request", `{"message":"Delete all?","destructive":true,"parent_request_id":7}`, &res)
	if res.Confirmed {
		t.Fatal("unscripted confirmation confirmed")
	}
	// Outside an active parent: denied even when scripted.
	e.ok("confirmation/request", `{"message":"Deploy now?","parent_request_id":99}`, &res)
	if res.Confirmed {
		t.Fatal("confirmation outside an active parent confirmed")
	}
	e.ok("confirmation/request", `{"message":"Deploy now?"}`, &res)
	if res.Confirmed {
		t.Fatal("API 0.4 confirmation without a parent confirmed")
	}
	// API 0.1 has no parents.
	e.c.APIVersion = "0.1"
	e.ok("confirmation/request", `{"message":"Deploy now?"}`, &res)
	if !res.Confirmed {
		t.Fatal("API 0.1 scripted confirmation denied")
	}
	e.fails("confirmation/request", `{"message":1}`, -32602)
}

func TestInput(t *testing.T) {
	sc := mustScript(t, `
[[inputs]]
match = "Password"
value = "hunter2-input"
[[inputs]]
match = "Name"
cancel = true
`)
	e := newEnv(t, sc)
	var res struct{ Value *string }
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Password:","secret":true}`, &res)
	if res.Value == nil || *res.Value != "hunter2-input" {
		t.Fatalf("value %v", res.Value)
	}
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Name:","secret":false}`, &res)
	if res.Value != nil {
		t.Fatal("cancelled input answered")
	}
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Unscripted?","secret":false}`, &res)
	if res.Value != nil {
		t.Fatal("headless input answered")
	}
	e.fails("input/request", `{"parent_request_id":7,"prompt":"   ","secret":false}`, -32602)
	e.fails("input/request", `{"parent_request_id":7,"prompt":"`+strings.Repeat("a", 16385)+`","secret":false}`, -32602)
	e.fails("input/request", `{"parent_request_id":7,"prompt":"x"}`, -32602)
	e.fails("input/request", `{"prompt":"x","secret":false}`, -32602)
	e.fails("input/request", `{"parent_request_id":8,"prompt":"x","secret":false}`, -32002)
	e.fails("input/request", `{"parent_request_id":-1,"prompt":"x","secret":false}`, -32602)
	for _, ev := range e.eventsOf(services.EventInput) {
		if strings.Contains(strings.ToLower(ev.Payload.(services.InputRequest).Prompt), "hunter2") {
			t.Fatal("input event carries the answer")
		}
	}
}

func TestProgress(t *testing.T) {
	e := newEnv(t, nil)
	e.notify("$/progress", `{"parent_request_id":7,"sequence":1,"event":{"type":"status","message":"a","current":1,"total":3}}`)
	e.notify("$/progress", `{"parent_request_id":7,"sequence":1,"event":{"type":"status"}}`) // repeat: stale
	e.notify("$/progress", `{"parent_request_id":7,"sequence":3,"event":{"type":"output","stream":"stderr","encoding":"base64","data":"aGk="}}`)
	e.notify("$/progress", `{"parent_request_id":7,"sequence":2,"event":{"type":"status"}}`) // below last: stale
	e.notify("$/progress", `{"parent_request_id":9,"sequence":1,"event":{"type":"status"}}`) // inactive
	e.notify("$/progress", `{"parent_request_id":7,"sequence":4,"event":{"type":"decoration","label":"x"}}`)
	got := e.eventsOf(services.EventProgress)
	if len(got) != 3 {
		t.Fatalf("%d progress events, want 3", len(got))
	}
	for i, want := range []int64{1, 3, 4} {
		if got[i].Payload.(services.Progress).Sequence != want {
			t.Fatalf("event %d sequence %d, want %d", i, got[i].Payload.(services.Progress).Sequence, want)
		}
	}
	if len(e.eventsOf(services.EventDiagnostic)) != 0 {
		t.Fatalf("stale progress produced diagnostics: %v", e.lastDiagnostic())
	}
	// Malformed events are diagnosed.
	for _, bad := range []string{
		`{"parent_request_id":7,"sequence":0,"event":{"type":"status"}}`,
		`{"parent_request_id":7,"sequence":9,"event":{"type":"status","current":-1}}`,
		`{"parent_request_id":7,"sequence":9,"event":{"type":"output","stream":"stdin","encoding":"utf8","data":""}}`,
		`{"parent_request_id":7,"sequence":9,"event":{"type":"output","stream":"stdout","encoding":"base64","data":"@@"}}`,
		`{"parent_request_id":7,"sequence":9,"event":{"type":"teleport"}}`,
	} {
		e.notify("$/progress", bad)
	}
	if n := len(e.eventsOf(services.EventDiagnostic)); n != 5 {
		t.Fatalf("%d diagnostics, want 5", n)
	}
	// Decoration needs its feature.
	delete(e.c.Features, "progress_decoration")
	e.notify("$/progress", `{"parent_request_id":7,"sequence":10,"event":{"type":"decoration","label":"x"}}`)
	if !strings.Contains(e.lastDiagnostic(), "progress_decoration") {
		t.Errorf("diagnostic %q", e.lastDiagnostic())
	}
	// After the parent settles, its stream is closed.
	e.r.ParentSettled(e.c, parent)
	e.setActive(parent, defaultOwner(), false)
	e.notify("$/progress", `{"parent_request_id":7,"sequence":11,"event":{"type":"status"}}`)
	if len(e.eventsOf(services.EventProgress)) != 3 {
		t.Fatal("progress accepted after the parent settled")
	}
}
