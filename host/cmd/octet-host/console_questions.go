package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/octet-kit/octet/host/reference"
	"github.com/octet-kit/octet/host/services"
)

// consoleQuestions prints, one JSON line each, the confirmations and input requests a host
// that died left pending on this state directory (`questions`).
func consoleQuestions(ctx context.Context, sess *reference.Session, out io.Writer) {
	qs, err := sess.OpenQuestions(ctx)
	if err != nil {
		fmt.Fprintf(out, "questions: %v\n", err)
		return
	}
	if len(qs) == 0 {
		fmt.Fprintln(out, "questions: none left open by a stopped host")
		return
	}
	for _, q := range qs {
		b, _ := json.Marshal(map[string]any{"question": q})
		fmt.Fprintln(out, string(b))
	}
}

// consoleAnswer answers one of them (`answer ID TEXT`): yes or no for a confirmation, the
// value for an input request. One JSON line: the reply the extension will receive and
// whether it repeats the first answer, or the classified refusal.
func consoleAnswer(ctx context.Context, rest string, sess *reference.Session, out io.Writer) {
	id, text, _ := strings.Cut(rest, " ")
	if id == "" {
		fmt.Fprintln(out, "answer: usage: answer ID TEXT (yes or no for a confirmation, the value for an input request)")
		return
	}
	reply, repeated, err := sess.AnswerQuestion(ctx, id, strings.TrimSpace(text))
	var line map[string]any
	var ae *services.AnswerError
	switch {
	case errors.As(err, &ae):
		line = map[string]any{"answer": id, "error": map[string]any{"kind": ae.Kind, "message": ae.Error()}}
	case err != nil:
		line = map[string]any{"answer": id, "error": map[string]any{"kind": "internal", "message": err.Error()}}
	default:
		line = map[string]any{"answer": id, "reply": reply, "repeated": repeated}
	}
	b, _ := json.Marshal(line)
	fmt.Fprintln(out, string(b))
}
