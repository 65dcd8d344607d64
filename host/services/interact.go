package services

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// Event kinds for scripted interactions (the console shows what was asked
// and what the script answered; secret answers are never included).
const (
	EventConfirmation EventKind = "confirmation" // Payload: Confirmation
	EventInput        EventKind = "input"        // Payload: InputRequest
)

// Confirmation is a confirmation/request and its scripted answer.
type Confirmation struct {
	Message     string `json:"message"`
	Title       string `json:"title,omitempty"`
	Destructive bool   `json:"destructive,omitempty"`
	Confirmed   bool   `json:"confirmed"`
	Reason      string `json:"reason"`
}

// InputRequest is an input/request and whether it was answered. The value
// is deliberately absent.
type InputRequest struct {
	Prompt   string `json:"prompt"`
	Secret   bool   `json:"secret"`
	Answered bool   `json:"answered"`
}

// Question is a confirmation or input request offered to RouterConfig.Interact.
type Question struct {
	Kind      EventKind // EventConfirmation or EventInput
	Extension string
	// Parent is the parent_request_id exactly as the extension sent it (compact JSON),
	// the id of the host request the question belongs to.
	Parent      string
	Message     string // confirmation
	Title       string // confirmation
	Destructive bool   // confirmation
	Prompt      string // input
	Secret      bool   // input
}

// Answer is Interact's answer: Confirmed for a confirmation, Value (nil: cancelled)
// for input.
type Answer struct {
	Confirmed bool
	Value     *string
}

type confirmationParams struct {
	Message     string          `json:"message"`
	Title       string          `json:"title,omitempty"`
	Destructive bool            `json:"destructive,omitempty"`
	Parent      json.RawMessage `json:"parent_request_id,omitempty"`
}

// confirmation answers from the script. Confirmations are cooperative UI,
// not enforcement: anything outside an active parent (API 0.2+), or with no
// scripted answer, is denied rather than implicitly accepted.
func (r *Router) confirmation(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p confirmationParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	ev := Confirmation{Message: p.Message, Title: p.Title, Destructive: p.Destructive}
	switch {
	case apiAtLeast(c.APIVersion, "0.2") && len(p.Parent) == 0:
		ev.Reason = "denied: no parent_request_id (outside an active request)"
	case len(p.Parent) > 0 && !r.parentActive(c, p.Parent):
		ev.Reason = "denied: parent_request_id is not an active host request"
	default:
		ev.Confirmed, ev.Reason = false, "denied: no scripted answer (default policy)"
		if a, ok := r.ask(ctx, Question{Kind: EventConfirmation, Extension: c.Extension, Parent: string(p.Parent),
			Message: p.Message, Title: p.Title, Destructive: p.Destructive}); ok {
			ev.Confirmed, ev.Reason = a.Confirmed, "answered by the front end"
		} else if r.cfg.Script != nil {
			for _, a := range r.cfg.Script.Confirmations {
				if (a.Extension == "" || a.Extension == c.Extension) && strings.Contains(p.Message, a.Match) {
					ev.Confirmed, ev.Reason = a.Confirmed, "scripted"
					break
				}
			}
		}
	}
	r.emit(c, EventConfirmation, ev)
	return map[string]bool{"confirmed": ev.Confirmed}, nil
}

func (r *Router) parentActive(c *Caller, raw json.RawMessage) bool {
	id, err := parseParentID(raw)
	if err != nil {
		return false
	}
	_, ok := r.activeParent(c, id)
	return ok
}

type inputParams struct {
	Parent json.RawMessage `json:"parent_request_id"`
	Prompt string          `json:"prompt"`
	Secret bool            `json:"secret"`
}

// input answers input/request from the script; unanswered (headless) input
// is cancelled: {"value": null}. A secret answer goes only into the
// response (never an event, a record or a log) and into the redactor.
func (r *Router) input(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p inputParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if strings.TrimFunc(p.Prompt, unicode.IsSpace) == "" {
		return nil, invalidParams("prompt", "must contain a non-whitespace character")
	}
	if len(p.Prompt) > inputPromptMaxBytes {
		return nil, invalidParams("prompt", "is %d bytes; the limit is %d", len(p.Prompt), inputPromptMaxBytes)
	}
	pctx, _, _, done, err := r.withParent(ctx, c, p.Parent)
	if err != nil {
		return nil, err
	}
	defer done()
	var value *string
	if a, ok := r.ask(pctx, Question{Kind: EventInput, Extension: c.Extension, Parent: string(p.Parent), Prompt: p.Prompt, Secret: p.Secret}); ok {
		if a.Value != nil && len(*a.Value) <= inputValueMaxBytes {
			value = a.Value
		}
	} else if r.cfg.Script != nil {
		for _, a := range r.cfg.Script.Inputs {
			if (a.Extension == "" || a.Extension == c.Extension) && strings.Contains(p.Prompt, a.Match) {
				if !a.Cancel && len(a.Value) <= inputValueMaxBytes {
					v := a.Value
					value = &v
				}
				break
			}
		}
	}
	if value != nil && p.Secret {
		// Registered before the answer leaves: the frame that carries it is
		// traced and recorded redacted, and any echo of it afterwards too.
		r.red.Add(*value)
	}
	r.emit(c, EventInput, InputRequest{Prompt: p.Prompt, Secret: p.Secret, Answered: value != nil})
	return map[string]*string{"value": value}, nil
}

// ask offers q to RouterConfig.Interact, if any.
func (r *Router) ask(ctx context.Context, q Question) (Answer, bool) {
	if r.cfg.Interact == nil {
		return Answer{}, false
	}
	return r.cfg.Interact(ctx, q)
}

func itoa(i int) string { return strconv.Itoa(i) }
