package reference

import (
	"context"
	"encoding/json"

	"github.com/octet-kit/octet/host/services"
)

// OpenQuestions lists the confirmations and input requests a host that died left pending
// on this state directory (services.Router.OpenQuestions).
func (h *Host) OpenQuestions(ctx context.Context) ([]services.OpenQuestion, error) {
	return h.router.OpenQuestions(ctx)
}

// AnswerQuestion answers one of them; the first answer wins
// (services.Router.AnswerQuestion).
func (h *Host) AnswerQuestion(ctx context.Context, id, text string) (json.RawMessage, bool, error) {
	return h.router.AnswerQuestion(ctx, id, text)
}

// OpenQuestions is Host.OpenQuestions for the session's host.
func (s *Session) OpenQuestions(ctx context.Context) ([]services.OpenQuestion, error) {
	return s.router.OpenQuestions(ctx)
}

// AnswerQuestion is Host.AnswerQuestion for the session's host.
func (s *Session) AnswerQuestion(ctx context.Context, id, text string) (json.RawMessage, bool, error) {
	return s.router.AnswerQuestion(ctx, id, text)
}
