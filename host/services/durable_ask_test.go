package services_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/sdk-go/jsonrpc"
)

// blockingAsker reports each question on asked and answers it only when told (a person who
// has not answered yet; a host killed meanwhile never hears back).
type blockingAsker struct {
	asked   chan string // question ids
	release chan bool   // true: answer yes; false: no answer
}

func (a *blockingAsker) Confirm(ctx context.Context, _ string, q services.Confirmation) (bool, bool) {
	a.asked <- q.ID
	select {
	case yes := <-a.release:
		return yes, yes
	case <-ctx.Done():
		return false, false
	}
}

func (a *blockingAsker) Input(ctx context.Context, _ string, q services.InputRequest) (string, bool) {
	a.asked <- q.ID
	select {
	case <-a.release:
	case <-ctx.Done():
	}
	return "", false
}

func handle(t *testing.T, r *services.Router, c *services.Caller, method, params string) json.RawMessage {
	t.Helper()
	res, err := r.Handle(context.Background(), c, &jsonrpc.Request{ID: jsonrpc.StringID("t"), Method: method, Params: json.RawMessage(params)})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	b, _ := json.Marshal(res)
	return b
}

// A question whose host stops answering (the first router, whose asker never returns) is
// listed by the next router on the same store and answered there once: the same answer
// again is idempotent, a different one is refused as question_answered, the next identical
// confirmation of the same extension receives the stored answer without anyone being
// asked, and the one after that is asked afresh.
func TestDurableQuestionAnsweredByTheNextHostOnce(t *testing.T) {
	dead := &blockingAsker{asked: make(chan string, 1), release: make(chan bool)}
	e := newEnvAsking(t, nil, dead)
	const ask = `{"message":"Drop the table?","parent_request_id":7}`
	done := make(chan json.RawMessage, 1)
	go func() { done <- handle(t, e.r, e.c, "confirmation/request", ask) }()
	id := <-dead.asked

	next := &fakeAsker{answered: false}
	r2, err := services.NewRouter(services.RouterConfig{Store: e.st, Asker: next})
	if err != nil {
		t.Fatal(err)
	}
	open, err := r2.OpenQuestions(context.Background())
	if err != nil || len(open) != 1 || open[0].ID != id || open[0].Kind != "confirm" || open[0].Message != "Drop the table?" || open[0].Extension != "demo" {
		t.Fatalf("open questions: %+v %v", open, err)
	}
	if mine, _ := e.r.OpenQuestions(context.Background()); len(mine) != 0 {
		t.Fatalf("the asking router lists its own live question: %+v", mine)
	}
	refuse := func(text, kind string) {
		t.Helper()
		_, _, err := r2.AnswerQuestion(context.Background(), id, text)
		var ae *services.AnswerError
		if !errors.As(err, &ae) || ae.Kind != kind {
			t.Fatalf("answer %q: %v, want %s", text, err, kind)
		}
	}
	refuse("maybe", "answer_invalid")
	reply, repeated, err := r2.AnswerQuestion(context.Background(), id, "yes")
	if err != nil || repeated || string(reply) != `{"confirmed":true}` {
		t.Fatalf("first answer: %s %v %v", reply, repeated, err)
	}
	reply, repeated, err = r2.AnswerQuestion(context.Background(), id, "y")
	if err != nil || !repeated || string(reply) != `{"confirmed":true}` {
		t.Fatalf("repeated answer: %s %v %v", reply, repeated, err)
	}
	refuse("no", "question_answered")
	if open, _ := r2.OpenQuestions(context.Background()); len(open) != 0 {
		t.Fatalf("still open after the answer: %+v", open)
	}

	// The extension asks again under the next host: the stored answer, once.
	if got := string(handle(t, r2, e.c, "confirmation/request", ask)); got != `{"confirmed":true}` {
		t.Fatalf("the asked-again confirmation got %s", got)
	}
	if len(next.asked) != 0 {
		t.Fatalf("the person was asked again: %q", next.asked)
	}
	if got := string(handle(t, r2, e.c, "confirmation/request", ask)); got != `{"confirmed":false}` {
		t.Fatalf("a later identical confirmation got %s (the stored answer is handed out once)", got)
	}
	if len(next.asked) != 1 {
		t.Fatalf("the later confirmation was not asked: %q", next.asked)
	}
	// The first host's asker, released with no answer, hands nothing on: the answer went
	// to the extension that asked again.
	dead.release <- false
	if got := string(<-done); got != `{"confirmed":false}` {
		t.Fatalf("the first host's question got %s", got)
	}
	refuse("no", "question_answered")
	if _, _, err := r2.AnswerQuestion(context.Background(), "q-nope", "yes"); err == nil || !strings.Contains(err.Error(), "no question") {
		t.Fatalf("unknown id: %v", err)
	}
}

// An answer given on another route while the asker still waits wins: the asker's own later
// answer is not what the extension receives.
func TestDurableQuestionFirstAnswerWinsOverTheLiveAsker(t *testing.T) {
	live := &blockingAsker{asked: make(chan string, 1), release: make(chan bool)}
	e := newEnvAsking(t, nil, live)
	done := make(chan json.RawMessage, 1)
	go func() {
		done <- handle(t, e.r, e.c, "confirmation/request", `{"message":"Ship it?","parent_request_id":7}`)
	}()
	id := <-live.asked
	other, err := services.NewRouter(services.RouterConfig{Store: e.st})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := other.AnswerQuestion(context.Background(), id, "no"); err != nil {
		t.Fatal(err)
	}
	live.release <- true // the person at the first host says yes, later
	if got := string(<-done); got != `{"confirmed":false}` {
		t.Fatalf("the extension got %s; the first answer (no) wins", got)
	}
}

// Options: an input request with options hands the Asker the options; an answer outside
// them is no answer (value null), one of them is the value; free text is accepted only
// when allowed. Options with a secret, duplicate values and allow_free_text without
// options are refused.
func TestInputOptions(t *testing.T) {
	a := &fakeAsker{answered: true}
	e := newEnvAsking(t, nil, a)
	var in struct{ Value *string }
	const opts = `"options":[{"value":"main","label":"Main"},{"value":"dev","label":"Dev","description":"unstable"}]`
	a.value = "feature"
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Branch?","secret":false,`+opts+`}`, &in)
	if in.Value != nil {
		t.Fatalf("an answer outside the options was delivered: %q", *in.Value)
	}
	a.value = "dev"
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Branch?","secret":false,`+opts+`}`, &in)
	if in.Value == nil || *in.Value != "dev" {
		t.Fatalf("option answer: %v", in.Value)
	}
	a.value = "feature"
	e.ok("input/request", `{"parent_request_id":7,"prompt":"Branch?","secret":false,"allow_free_text":true,`+opts+`}`, &in)
	if in.Value == nil || *in.Value != "feature" {
		t.Fatalf("free text: %v", in.Value)
	}
	ev := e.eventsOf(services.EventInput)[0].Payload.(services.InputRequest)
	if len(ev.Options) != 2 || ev.Options[1].Label != "Dev" || ev.Answered {
		t.Fatalf("input event: %+v", ev)
	}
	for params, want := range map[string]string{
		`{"parent_request_id":7,"prompt":"P","secret":true,` + opts + `}`:                                                     "options: a secret input request takes no options",
		`{"parent_request_id":7,"prompt":"P","secret":false,"options":[{"value":"a","label":"A"},{"value":"a","label":"B"}]}`: `options[1].value: repeats options[0].value "a"`,
		`{"parent_request_id":7,"prompt":"P","secret":false,"allow_free_text":false}`:                                         "allow_free_text: applies only with options",
		`{"parent_request_id":7,"prompt":"P","secret":false,"options":[{"value":"\u00a0","label":"A"}]}`:                      "options[0].value: must contain a non-whitespace character",
	} {
		if err := e.fails("input/request", params, -32602); !strings.Contains(err.Message, want) {
			t.Errorf("%s: %q, want %q", params, err.Message, want)
		}
	}
	if err := services.CheckOption(ev.Options, false, "x"); err == nil || err.Kind != "answer_not_an_option" || err.Message != `the answer "x" is not one of the options ("main", "dev")` {
		t.Fatalf("CheckOption: %+v", err)
	}
}
