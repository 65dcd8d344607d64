package services_test

import (
	"context"
	"sync"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

// fakeAsker answers from fixed values and counts what it was asked.
type fakeAsker struct {
	mu       sync.Mutex
	asked    []string
	confirm  bool
	value    string
	answered bool
}

func (a *fakeAsker) Confirm(_ context.Context, ext string, q services.Confirmation) (bool, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, ext+": "+q.Message)
	return a.confirm, a.answered
}

func (a *fakeAsker) Input(_ context.Context, ext string, q services.InputRequest) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, ext+": "+q.Prompt)
	return a.value, a.answered
}

// The script answers first and the Asker gets only what it leaves open; an Asker with no
// answer leaves it to the default policy (deny, cancel); outside an active parent nothing
// is asked.
func TestAskerAnswersWhatTheScriptLeavesOpen(t *testing.T) {
	sc := mustScript(t, "[[confirmations]]\nmatch = \"Deploy\"\nconfirmed = false\n[[inputs]]\nmatch = \"Name\"\nvalue = \"scripted\"\n")
	a := &fakeAsker{confirm: true, value: "typed", answered: true}
	e := newEnvAsking(t, sc, a)
	var conf struct{ Confirmed bool }
	e.ok("confirmation/request", `{"message":"Deploy now?","parent_request_id":7}`, &conf)
	if conf.Confirmed {
		t.Fatal("the script said no; the asker was consulted")
	}
	e.ok("confirmation/request", `{"message":"Delete all?","parent_request_id":7}`, &conf)
	if !conf.Confirmed {
		t.Fatal("the asker's yes was not the answer")
	}
	var in struct{ Value *string }
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Name:","secret":false}`, &in)
	if in.Value == nil || *in.Value != "scripted" {
		t.Fatalf("scripted input: %v", in.Value)
	}
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Colour:","secret":true}`, &in)
	if in.Value == nil || *in.Value != "typed" {
		t.Fatalf("asked input: %v", in.Value)
	}
	// Outside an active parent: denied before anyone is asked.
	e.ok("confirmation/request", `{"message":"Orphan?","parent_request_id":99}`, &conf)
	if conf.Confirmed {
		t.Fatal("a confirmation outside an active parent was confirmed")
	}
	if want := []string{"demo: Delete all?", "demo: Colour:"}; len(a.asked) != 2 || a.asked[0] != want[0] || a.asked[1] != want[1] {
		t.Fatalf("asked %q, want %q", a.asked, want)
	}
	evs := e.eventsOf(services.EventConfirmation)
	if evs[1].Payload.(services.Confirmation).Reason != services.ReasonAsked {
		t.Errorf("reason %q", evs[1].Payload.(services.Confirmation).Reason)
	}
	for _, ev := range e.eventsOf(services.EventInput) {
		if p := ev.Payload.(services.InputRequest); !p.Answered {
			t.Errorf("input event %+v", p)
		}
	}

	// No answer from the asker: the default policy.
	silent := newEnvAsking(t, nil, &fakeAsker{answered: false})
	silent.ok("confirmation/request", `{"message":"Go?","parent_request_id":7}`, &conf)
	silent.ok("input/request", `{"parent_request_id":7,"prompt":"Anything:","secret":false}`, &in)
	if conf.Confirmed || in.Value != nil {
		t.Fatalf("unanswered: confirmed %v, value %v", conf.Confirmed, in.Value)
	}
	if r := silent.eventsOf(services.EventConfirmation)[0].Payload.(services.Confirmation).Reason; r != services.ReasonNoAnswer {
		t.Errorf("reason %q", r)
	}
}
