package devui

import (
	"context"
	"testing"

	"github.com/octet-kit/octet/host/services"
)

// The page's answer to a question with options: one outside them is refused with the one
// verdict (answer_not_an_option) and the question stays open; an option's value answers it.
func TestPageAnswerMustBeAnOption(t *testing.T) {
	a := newAnswers(newHub(16, 1<<20))
	got := make(chan string, 1)
	go func() {
		v, _ := a.Input(context.Background(), "ext", services.InputRequest{Prompt: "Branch?",
			Options: []services.InputOption{{Value: "main", Label: "Main"}, {Value: "dev", Label: "Dev"}}})
		got <- v
	}()
	var id string
	for id == "" { // the question is open once Input has published it
		for _, q := range a.pending() {
			id = q.ID
		}
	}
	stray := "feature"
	err := a.reply(id, answer{Value: &stray})
	if ae, ok := err.(*services.AnswerError); !ok || ae.Kind != "answer_not_an_option" {
		t.Fatalf("stray answer: %v", err)
	}
	if len(a.pending()) != 1 {
		t.Fatal("the refused answer closed the question")
	}
	dev := "dev"
	if err := a.reply(id, answer{Value: &dev}); err != nil {
		t.Fatal(err)
	}
	if v := <-got; v != "dev" {
		t.Fatalf("answer %q", v)
	}
}
