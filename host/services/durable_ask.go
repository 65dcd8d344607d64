package services

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/octet-kit/octet/host/store"
)

// Durable questions (docs/host.md, "Questions that survive the host"). A confirmation or
// input request put to the Asker is written to the store before it is shown, so a host that
// is killed while a person thinks leaves it pending. The next host on the same state
// directory lists it (OpenQuestions) and takes its answer (AnswerQuestion). The extension
// process that asked died with its host; the answer is kept as a memo and handed, once, to
// the next identical question (same extension identity, same kind, same text and options),
// which then returns at once instead of asking again: that question is the asking code
// running again (the model retries the tool), fenced by its content. The first answer wins
// on every route: the store moves a question out of pending once.

// Kinds of a durable question.
const (
	kindConfirm = "confirm"
	kindInput   = "input"
)

// Reasons a Confirmation event carries when a stored answer decided.
const ReasonRemembered = "answered after a host restart (stored answer)"

// storedQuestion is the question as stored (and digested into the memo key). The field
// order is fixed, so the same question always has the same bytes.
type storedQuestion struct {
	Message       string        `json:"message,omitempty"`
	Title         string        `json:"title,omitempty"`
	Destructive   bool          `json:"destructive,omitempty"`
	Prompt        string        `json:"prompt,omitempty"`
	Secret        bool          `json:"secret,omitempty"`
	Options       []InputOption `json:"options,omitempty"`
	AllowFreeText bool          `json:"allow_free_text,omitempty"`
}

// storedAnswer is an answer as stored: {"confirmed":b} or {"value":s}.
type storedAnswer struct {
	Confirmed *bool   `json:"confirmed,omitempty"`
	Value     *string `json:"value,omitempty"`
}

func (a storedAnswer) bytes() []byte { b, _ := json.Marshal(a); return b }

func questionKey(kind string, q storedQuestion) (string, []byte) {
	b, _ := json.Marshal(q)
	sum := sha256.Sum256(append([]byte(kind+"\n"), b...))
	return hex.EncodeToString(sum[:]), b
}

func identityOf(c *Caller) string {
	if c.Identity != "" {
		return c.Identity
	}
	return c.Extension
}

// remembered hands out the answer an identical question got after its asker died, once.
func (r *Router) remembered(ctx context.Context, c *Caller, kind string, q storedQuestion) (storedAnswer, bool) {
	key, _ := questionKey(kind, q)
	_, raw, ok, err := r.store.TakeInteractionMemo(context.WithoutCancel(ctx), identityOf(c), kind, key)
	if err != nil || !ok {
		return storedAnswer{}, false
	}
	var a storedAnswer
	if json.Unmarshal(raw, &a) != nil {
		return storedAnswer{}, false
	}
	return a, true
}

// askDurably records q as pending, asks (ask gets the question's id), and records the
// outcome. A question answered meanwhile by another route (a second console, another host
// on the same state directory) keeps that first answer, and the asker hands it on. A
// secret's value is never written: its question is only marked delivered.
func (r *Router) askDurably(ctx context.Context, c *Caller, kind string, q storedQuestion, ask func(id string) (storedAnswer, bool)) (storedAnswer, bool) {
	key, question := questionKey(kind, q)
	id, err := r.questionID()
	bg := context.WithoutCancel(ctx)
	if err == nil {
		err = r.store.AskInteraction(bg, store.Interaction{ID: id, Run: r.run, Identity: identityOf(c), Extension: c.Extension, Kind: kind, Key: key, Question: question})
	}
	if err != nil {
		// Not recorded: still asked (the live person answers), but it would not survive.
		r.emit(c, EventDiagnostic, Diagnostic{Method: kind, Message: "the question was not recorded and will not survive a host restart: " + err.Error()})
		return ask("")
	}
	a, ok := ask(id)
	if ok && q.Secret {
		_ = r.store.DeliverInteraction(bg, id)
		return a, true
	}
	if ok {
		winner, err := r.store.AnswerInteraction(bg, id, a.bytes(), true)
		var w storedAnswer
		if (err == nil || errors.Is(err, store.ErrInteractionAnswered)) && json.Unmarshal(winner, &w) == nil {
			return w, true
		}
		return a, true
	}
	raw, err := r.store.WithdrawInteraction(bg, id)
	var w storedAnswer
	if err == nil && raw != nil && json.Unmarshal(raw, &w) == nil {
		return w, true
	}
	return storedAnswer{}, false
}

// questionID is random from crypto/rand, not RouterConfig.Random: a test's fixed source
// must not shift because a question was asked.
func (r *Router) questionID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "q-" + hex.EncodeToString(b[:]), nil
}

// OpenQuestion is a question a host that died left unanswered.
type OpenQuestion struct {
	ID            string        `json:"id"`
	Kind          string        `json:"kind"` // confirm | input
	Extension     string        `json:"extension"`
	Message       string        `json:"message,omitempty"`
	Title         string        `json:"title,omitempty"`
	Destructive   bool          `json:"destructive,omitempty"`
	Prompt        string        `json:"prompt,omitempty"`
	Secret        bool          `json:"secret,omitempty"`
	Options       []InputOption `json:"options,omitempty"`
	AllowFreeText bool          `json:"allow_free_text,omitempty"`
	AskedAt       time.Time     `json:"asked_at"`
}

// openQuestionsMax bounds one listing.
const openQuestionsMax = 100

// OpenQuestions lists the questions hosts that died left pending on this state directory,
// oldest first (at most 100). This router's own questions are not among them: they are
// being asked now.
func (r *Router) OpenQuestions(ctx context.Context) ([]OpenQuestion, error) {
	rows, err := r.store.OpenInteractions(ctx, r.run, openQuestionsMax)
	if err != nil {
		return nil, err
	}
	out := make([]OpenQuestion, 0, len(rows))
	for _, row := range rows {
		var q storedQuestion
		_ = json.Unmarshal(row.Question, &q)
		out = append(out, OpenQuestion{ID: row.ID, Kind: row.Kind, Extension: row.Extension, Message: q.Message, Title: q.Title, Destructive: q.Destructive,
			Prompt: q.Prompt, Secret: q.Secret, Options: q.Options, AllowFreeText: q.AllowFreeText, AskedAt: row.AskedAt})
	}
	return out, nil
}

// AnswerError is a refused answer. Kind classifies it: question_unknown, question_closed,
// question_answered (the first answer won and this one differs), question_secret (a
// secret left by a dead host cannot be answered: its value is never stored),
// answer_invalid (a confirmation answered with something other than yes or no) and
// answer_not_an_option (see CheckOption).
type AnswerError struct {
	Kind    string
	ID      string
	Message string
}

func (e *AnswerError) Error() string {
	if e.ID == "" {
		return e.Message
	}
	return "question " + e.ID + ": " + e.Message
}

// AnswerQuestion answers an open question left by a dead host with the text a person typed:
// yes/y or no/n for a confirmation, the value for an input request (one of its options'
// values unless it allows free text). The first answer wins: the same answer again returns
// the same reply (repeated true); another is refused (question_answered). The reply is
// what the extension will receive: {"confirmed":b} or {"value":s}.
func (r *Router) AnswerQuestion(ctx context.Context, id, text string) (reply json.RawMessage, repeated bool, err error) {
	row, found, err := r.store.InteractionByID(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if !found {
		return nil, false, &AnswerError{Kind: "question_unknown", ID: id, Message: "no question with this id"}
	}
	var q storedQuestion
	_ = json.Unmarshal(row.Question, &q)
	var a storedAnswer
	switch row.Kind {
	case kindConfirm:
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "y", "yes":
			a.Confirmed = ptr(true)
		case "n", "no":
			a.Confirmed = ptr(false)
		default:
			return nil, false, &AnswerError{Kind: "answer_invalid", ID: id, Message: fmt.Sprintf("a confirmation is answered yes or no, not %q", text)}
		}
	default:
		if q.Secret {
			if row.State == store.InteractionPending {
				_, _ = r.store.WithdrawInteraction(ctx, id)
			}
			return nil, false, &AnswerError{Kind: "question_secret", ID: id, Message: "a secret input is never stored, so one left by a stopped host cannot be answered; it is withdrawn and the extension asks again"}
		}
		if err := CheckOption(q.Options, q.AllowFreeText, text); err != nil {
			err.ID = id
			return nil, false, err
		}
		if len(text) > inputValueMaxBytes {
			return nil, false, &AnswerError{Kind: "answer_invalid", ID: id, Message: fmt.Sprintf("the answer is %d bytes, over INPUT_VALUE_MAX_BYTES (%d)", len(text), inputValueMaxBytes)}
		}
		a.Value = &text
	}
	if row.Run == r.run && row.State == store.InteractionPending {
		// Asked by this host now: the live asker (console line, page) answers it.
		return nil, false, &AnswerError{Kind: "question_live", ID: id, Message: "the question is being asked now; answer it where it is shown"}
	}
	want := a.bytes()
	winner, err := r.store.AnswerInteraction(ctx, id, want, false)
	switch {
	case err == nil:
		return winner, row.State != store.InteractionPending, nil
	case errors.Is(err, store.ErrInteractionAnswered):
		return nil, false, &AnswerError{Kind: "question_answered", ID: id, Message: "answered already with " + string(winner) + "; the first answer wins"}
	case errors.Is(err, store.ErrInteractionClosed):
		return nil, false, &AnswerError{Kind: "question_closed", ID: id, Message: "the question ended without an answer (its request ended)"}
	case errors.Is(err, store.ErrInteractionUnknown):
		return nil, false, &AnswerError{Kind: "question_unknown", ID: id, Message: "no question with this id"}
	}
	return nil, false, err
}

// CheckOption is the one verdict on an answer to a question with options, on every route
// (console, page, MCP elicitation, a stored answer): a value that is none of the options'
// values is refused (answer_not_an_option) unless free text is allowed. Without options
// every value is an answer.
func CheckOption(options []InputOption, allowFreeText bool, value string) *AnswerError {
	if len(options) == 0 || allowFreeText {
		return nil
	}
	values := make([]string, 0, len(options))
	for _, o := range options {
		if o.Value == value {
			return nil
		}
		values = append(values, fmt.Sprintf("%q", o.Value))
	}
	return &AnswerError{Kind: "answer_not_an_option", Message: fmt.Sprintf("the answer %q is not one of the options (%s)", value, strings.Join(values, ", "))}
}

func ptr[T any](v T) *T { return &v }
