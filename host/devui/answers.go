package devui

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"sync"

	"github.com/octet-kit/octet/host/services"
)

// question is a confirmation or input request waiting for the person at the page.
type question struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"` // confirm | input
	Extension   string `json:"extension"`
	Message     string `json:"message,omitempty"`
	Title       string `json:"title,omitempty"`
	Destructive bool   `json:"destructive,omitempty"`
	Prompt      string `json:"prompt,omitempty"`
	Secret      bool   `json:"secret,omitempty"`
	// Options are an input request's choices (shown as buttons); the answer must be one
	// of their values unless AllowFreeText.
	Options       []services.InputOption `json:"options,omitempty"`
	AllowFreeText bool                   `json:"allow_free_text,omitempty"`

	reply chan answer
}

// answer is what the page sent for a question.
type answer struct {
	Confirmed bool
	Value     *string // nil cancels an input request
}

// answers is the page as the services.Asker: each question is published ("question"),
// kept until the page answers it or its request ends, and its end published
// ("answered", never with an input's value).
type answers struct {
	hub  *hub
	mu   sync.Mutex
	seq  int64
	open map[string]*question
}

var _ services.Asker = (*answers)(nil)

func newAnswers(h *hub) *answers { return &answers{hub: h, open: map[string]*question{}} }

func (a *answers) ask(ctx context.Context, q *question) (answer, bool) {
	a.mu.Lock()
	a.seq++
	q.ID = "q" + strconv.FormatInt(a.seq, 10)
	q.reply = make(chan answer, 1)
	a.open[q.ID] = q
	a.mu.Unlock()
	a.hub.publish("question", q.Extension, 0, q)
	select {
	case ans := <-q.reply:
		return ans, true
	case <-ctx.Done():
		a.mu.Lock()
		delete(a.open, q.ID)
		a.mu.Unlock()
		a.hub.publish("answered", q.Extension, 0, map[string]any{"id": q.ID, "outcome": "withdrawn: the request ended before an answer"})
		return answer{}, false
	}
}

// Confirm asks the page to confirm q.
func (a *answers) Confirm(ctx context.Context, ext string, q services.Confirmation) (bool, bool) {
	ans, ok := a.ask(ctx, &question{Kind: "confirm", Extension: ext, Message: q.Message, Title: q.Title, Destructive: q.Destructive})
	return ans.Confirmed, ok
}

// Input asks the page for a value; Cancel on the page is no answer (the request is
// cancelled, {"value": null}).
func (a *answers) Input(ctx context.Context, ext string, q services.InputRequest) (string, bool) {
	ans, ok := a.ask(ctx, &question{Kind: "input", Extension: ext, Prompt: q.Prompt, Secret: q.Secret, Options: q.Options, AllowFreeText: q.AllowFreeText})
	if !ok || ans.Value == nil {
		return "", false
	}
	return *ans.Value, true
}

// errNoQuestion answers an answer to a question that is not (or no longer) open.
var errNoQuestion = errors.New("no open question with this id (answered already, or its request ended)")

// reply delivers the page's answer to question id.
func (a *answers) reply(id string, ans answer) error {
	a.mu.Lock()
	q := a.open[id]
	if q != nil && q.Kind == "input" && ans.Value != nil {
		// The one verdict on an answer outside the options; the question stays open.
		if err := services.CheckOption(q.Options, q.AllowFreeText, *ans.Value); err != nil {
			a.mu.Unlock()
			return err
		}
	}
	delete(a.open, id)
	a.mu.Unlock()
	if q == nil {
		return errNoQuestion
	}
	q.reply <- ans
	outcome := "cancelled"
	switch {
	case q.Kind == "confirm" && ans.Confirmed:
		outcome = "confirmed"
	case q.Kind == "confirm":
		outcome = "denied"
	case ans.Value != nil:
		outcome = "answered"
	}
	a.hub.publish("answered", q.Extension, 0, map[string]any{"id": id, "outcome": outcome})
	return nil
}

// pending lists the open questions, oldest first (for a page that reloads).
func (a *answers) pending() []*question {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]*question, 0, len(a.open))
	for _, q := range a.open {
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool {
		return len(out[i].ID) < len(out[j].ID) || len(out[i].ID) == len(out[j].ID) && out[i].ID < out[j].ID
	})
	return out
}
