package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/services"
	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Durable interactions (docs/host.md, "Questions that survive the host") and input
// options, as an extension must take part in them.
//
// interaction.durable runs the fixture under two reference hosts in turn over one state
// store. The first records the fixture's confirmation and then dies as far as the store
// knows: its store closes the moment the question is recorded, so nothing it does
// afterwards is durable, as with a SIGKILL. The second lists the question, answers it
// (first answer wins; a different later answer is refused) and calls the fixture again:
// the fixture asks the same question again, in the same words, and must receive the
// stored answer, once. An extension whose questions change from one process to the next
// (a nonce, a pid, a timestamp in the text) never receives a durable answer.

// Prompts of these checks; the conformance script answers the option prompts.
const (
	durablePrompt      = "interaction.durable: drop the table?"
	optionsPickPrompt  = "interaction.options pick a branch"
	optionsStrayPrompt = "interaction.options stray answer"
)

func init() {
	register(&Check{
		Name:        "interaction.durable",
		Description: "a confirmation recorded by a host that died is listed by the next host, answered once (a different later answer is refused) and, asked again in the same words by the restarted extension, receives the stored answer once",
		Requirement: "docs/host.md: questions that survive the host; wire.md §6 confirmation/request",
		Tier:        Conditional,
		Tools:       []string{"ask"},
		Covers:      []string{protocol.MethodConfirmationRequest},
		Run:         checkInteractionDurable,
	}, &Check{
		Name:        "interaction.options",
		Description: "ask with options sends them to the host in order with their descriptions and allow_free_text only when asked; the chosen value comes back, and an answer outside the options comes back null",
		Requirement: "extension-methods.schema.json InputRequestParams.options; docs/host.md: questions",
		Tier:        Conditional,
		Tools:       []string{"ask"},
		Covers:      []string{protocol.MethodInputRequest},
		Run:         checkInteractionOptions,
	})
}

// dyingAsker is the first host's person: when the question is put, the host "dies" (its
// store closes), and no answer ever comes from it.
type dyingAsker struct {
	st    *store.Store
	asked chan string
}

func (a *dyingAsker) Confirm(_ context.Context, _ string, q services.Confirmation) (bool, bool) {
	a.st.Close()
	a.asked <- q.ID
	return false, false
}

func (a *dyingAsker) Input(context.Context, string, services.InputRequest) (string, bool) {
	return "", false
}

func checkInteractionDurable(t *T) error {
	state, err := os.MkdirTemp("", "octet-conformance-durable-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(state)
	ask := mustJSON(map[string]any{"kind": "confirm", "prompt": durablePrompt})

	st1, err := store.Open(t.Ctx, state)
	if err != nil {
		return err
	}
	asker := &dyingAsker{st: st1, asked: make(chan string, 1)}
	r1, err := services.NewRouter(services.RouterConfig{Store: st1, Asker: asker})
	if err != nil {
		st1.Close()
		return err
	}
	h1, stop1, err := referenceHostWith(t, func(o *host.Options) { o.Services = r1 })
	if err != nil {
		st1.Close()
		return err
	}
	_, _, err = h1.CallTool(t.Ctx, "ask", ask)
	stop1()
	var id string
	select {
	case id = <-asker.asked:
	default:
		return fail("the first host to be asked a confirmation by the fixture's ask", "nothing was asked (%v)", err)
	}
	if id == "" {
		return fail("the question recorded before it was asked", "it was not recorded")
	}

	st2, err := store.Open(t.Ctx, state)
	if err != nil {
		return err
	}
	defer st2.Close()
	r2, err := services.NewRouter(services.RouterConfig{Store: st2}) // no person: unanswered is denied
	if err != nil {
		return err
	}
	open, err := r2.OpenQuestions(t.Ctx)
	if err != nil {
		return err
	}
	if len(open) != 1 || open[0].ID != id || open[0].Kind != "confirm" || open[0].Message != durablePrompt {
		return fail("the next host to list the one confirmation "+durablePrompt, "%s", mustJSON(open))
	}
	if reply, _, err := r2.AnswerQuestion(t.Ctx, id, "yes"); err != nil || string(reply) != `{"confirmed":true}` {
		return fail(`the first answer taken: {"confirmed":true}`, "%s %v", reply, err)
	}
	var ae *services.AnswerError
	if _, _, err := r2.AnswerQuestion(t.Ctx, id, "no"); !errors.As(err, &ae) || ae.Kind != "question_answered" {
		return fail("a different later answer refused as question_answered", "%v", err)
	}
	h2, stop2, err := referenceHostWith(t, func(o *host.Options) { o.Services = r2 })
	if err != nil {
		return err
	}
	defer stop2()
	for i, want := range []string{`{"answer":true}`, `{"answer":false}`} {
		out, _, err := h2.CallTool(t.Ctx, "ask", ask)
		if err != nil {
			return fail("ask to succeed under the restarted host", "%v", err)
		}
		var r toolResult
		if json.Unmarshal(out, &r) != nil || !jsonEqual(r.StructuredContent, []byte(want)) {
			what := "the same confirmation asked again to receive the stored answer " + want
			if i == 1 {
				what = "the stored answer handed out once: the next identical confirmation denied " + want
			}
			return fail(what, "%s", excerpt(out, 200))
		}
	}
	return nil
}

func checkInteractionOptions(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	opts := []map[string]any{{"value": "main", "label": "Main"}, {"value": "dev", "label": "Dev", "description": "unstable"}}
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"kind": "input", "prompt": optionsPickPrompt, "options": opts}, `{"answer":"dev"}`},
		{map[string]any{"kind": "input", "prompt": optionsStrayPrompt, "options": opts, "allow_free_text": true}, `{"answer":"feature"}`},
		{map[string]any{"kind": "input", "prompt": optionsStrayPrompt, "options": opts}, `{"answer":null}`},
	} {
		resp, err := t.toolCall(s, "ask", c.args)
		if err != nil {
			return err
		}
		if resp.Error != nil {
			return fail("structured_content "+c.want+" for "+string(mustJSON(c.args)), "%s", resp.Error)
		}
		var r toolResult
		if json.Unmarshal(resp.Result, &r) != nil || r.IsError || !jsonEqual(r.StructuredContent, []byte(c.want)) {
			return fail("structured_content "+c.want+" for "+string(mustJSON(c.args)), "%s", excerpt(r.StructuredContent, 200))
		}
	}
	calls := s.services.Calls(protocol.MethodInputRequest)
	if len(calls) != 3 {
		return fail("3 input requests", "%d", len(calls))
	}
	for i, free := range []bool{false, true, false} {
		var p struct {
			Options       json.RawMessage `json:"options"`
			AllowFreeText *bool           `json:"allow_free_text"`
		}
		_ = json.Unmarshal(calls[i].Params, &p)
		if !jsonEqual(p.Options, mustJSON(opts)) || (p.AllowFreeText != nil && *p.AllowFreeText) != free || (!free && p.AllowFreeText != nil) {
			return fail("input/request with options "+string(mustJSON(opts))+map[bool]string{true: " and allow_free_text true", false: " and no allow_free_text"}[free],
				"%s", excerpt(calls[i].Params, 300))
		}
	}
	return nil
}
