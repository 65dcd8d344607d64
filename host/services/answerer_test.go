package services_test

import (
	"context"
	"sync"
	"testing"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// pageAnswerer is a services.Answerer that answers from fields and records what it was
// asked; with block set, it waits for the request's context to end instead.
type pageAnswerer struct {
	mu        sync.Mutex
	confirm   bool
	value     *string
	block     bool
	asked     []string
	entered   chan struct{}
	withdrawn chan struct{}
}

func (p *pageAnswerer) wait(ctx context.Context, q string) bool {
	p.mu.Lock()
	p.asked = append(p.asked, q)
	p.mu.Unlock()
	if !p.block {
		return true
	}
	p.entered <- struct{}{}
	<-ctx.Done()
	close(p.withdrawn)
	return false
}

func (p *pageAnswerer) Confirm(ctx context.Context, _ *services.Caller, q services.Confirmation) (bool, bool) {
	return p.confirm, p.wait(ctx, q.Message)
}

func (p *pageAnswerer) Input(ctx context.Context, _ *services.Caller, q services.InputRequest) (*string, bool) {
	return p.value, p.wait(ctx, q.Prompt)
}

// withAnswerer rebuilds e's router with a, keeping its store, clock and event log.
func withAnswerer(t *testing.T, e *env, a services.Answerer) {
	r, err := services.NewRouter(services.RouterConfig{Store: e.st, Script: mustScript(t, "[[confirmations]]\nmatch = \"Scripted\"\nconfirmed = false\n"),
		Clock: e.clock.Now, Timers: e.timers, Answerer: a,
		Events: services.EventSinkFunc(func(ev services.Event) {
			e.mu.Lock()
			e.events = append(e.events, ev)
			e.mu.Unlock()
		})})
	if err != nil {
		t.Fatal(err)
	}
	e.r = r
}

func TestAnswererAnswersWhatTheScriptLeavesOpen(t *testing.T) {
	e := newEnv(t, nil)
	a := &pageAnswerer{confirm: true}
	withAnswerer(t, e, a)
	var res struct{ Confirmed bool }
	e.ok("confirmation/request", `{"message":"Deploy now?","parent_request_id":7}`, &res)
	if !res.Confirmed {
		t.Fatal("the answerer's yes was not the answer")
	}
	evs := e.eventsOf(services.EventConfirmation)
	if c := evs[len(evs)-1].Payload.(services.Confirmation); !c.Confirmed || c.Reason != "answered" {
		t.Fatalf("event %+v, want confirmed and reason answered", c)
	}
	// A scripted answer wins; the answerer is not asked.
	e.ok("confirmation/request", `{"message":"Scripted step","parent_request_id":7}`, &res)
	if res.Confirmed || len(a.asked) != 1 {
		t.Fatalf("scripted: confirmed %v, answerer asked %q", res.Confirmed, a.asked)
	}
	// Outside an active parent the answerer is never asked.
	e.ok("confirmation/request", `{"message":"Deploy now?","parent_request_id":99}`, &res)
	if res.Confirmed || len(a.asked) != 1 {
		t.Fatalf("inactive parent: confirmed %v, answerer asked %q", res.Confirmed, a.asked)
	}
	v := "Ada"
	a.value = &v
	var in struct{ Value *string }
	e.ok("input/request", `{"prompt":"Name?","secret":false,"parent_request_id":7}`, &in)
	if in.Value == nil || *in.Value != "Ada" {
		t.Fatalf("input %+v, want Ada", in.Value)
	}
}

func TestAnswererIsWithdrawnWhenTheParentSettles(t *testing.T) {
	e := newEnv(t, nil)
	for _, method := range []string{"confirmation/request", "input/request"} {
		a := &pageAnswerer{block: true, confirm: true, entered: make(chan struct{}), withdrawn: make(chan struct{})}
		withAnswerer(t, e, a)
		params := `{"message":"Deploy now?","parent_request_id":7}`
		if method == "input/request" {
			params = `{"prompt":"Name?","secret":false,"parent_request_id":7}`
		}
		done := make(chan []byte, 1)
		go func() {
			res, _ := e.r.Handle(context.Background(), e.c, &jsonrpc.Request{ID: jsonrpc.StringID("go:1"), Method: method, Params: []byte(params)})
			b := mustJSON(t, res)
			done <- b
		}()
		select {
		case <-a.entered:
		case b := <-done:
			t.Fatalf("%s answered %s without asking", method, b)
		}
		e.r.ParentSettled(e.c, jsonrpc.IntID(7))
		<-a.withdrawn
		if got := string(<-done); got != `{"confirmed":false}` && got != `{"value":null}` {
			t.Fatalf("%s after the parent settled: %s, want a denial or cancellation", method, got)
		}
	}
}
