package services

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// Event kinds for scripted interactions (the console shows what was asked
// and what the script answered; secret answers are never included).
const (
	EventConfirmation EventKind = "confirmation" // Payload: Confirmation
	EventInput        EventKind = "input"        // Payload: InputRequest
)

// Confirmation is a confirmation/request and its scripted answer.
type Confirmation struct {
	// Parent is the parent_request_id as compact JSON (the host request the question
	// belongs to; empty without one), so an Asker can route it (octet-mcp-gateway asks the
	// MCP client whose call that is).
	Parent string `json:"parent_request_id,omitempty"`
	// ID is the durable question's id (empty when it was not put to a person, or could not
	// be recorded): what `answer ID` takes after a host restart.
	ID          string `json:"id,omitempty"`
	Message     string `json:"message"`
	Title       string `json:"title,omitempty"`
	Destructive bool   `json:"destructive,omitempty"`
	Confirmed   bool   `json:"confirmed"`
	Reason      string `json:"reason"`
}

// InputRequest is an input/request and whether it was answered. The value
// is deliberately absent.
type InputRequest struct {
	Parent   string `json:"parent_request_id,omitempty"` // as in Confirmation
	ID       string `json:"id,omitempty"`                // as in Confirmation
	Prompt   string `json:"prompt"`
	Secret   bool   `json:"secret"`
	Answered bool   `json:"answered"`
	// Options are the choices offered, in order; the answer is one option's value unless
	// AllowFreeText (CheckOption).
	Options       []InputOption `json:"options,omitempty"`
	AllowFreeText bool          `json:"allow_free_text,omitempty"`
}

// InputOption is one choice of an input request.
type InputOption = protocol.InputOption

// confirmation answers from the script. Confirmations are cooperative UI,
// not enforcement: anything outside an active parent (API 0.2+), or with no
// scripted answer, is denied rather than implicitly accepted.
func (r *Router) confirmation(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decode[protocol.ConfirmationRequestParams](raw)
	if err != nil {
		return nil, err
	}
	ev := Confirmation{Parent: parentText(p.ParentRequestID), Message: p.Message, Title: deref(p.Title), Destructive: p.Destructive != nil && *p.Destructive}
	switch {
	case c.APIVersion != "0.1" && p.ParentRequestID == nil:
		ev.Reason = "denied: no parent_request_id (outside an active request)"
	case p.ParentRequestID != nil && !r.parentActive(c, *p.ParentRequestID):
		ev.Reason = "denied: parent_request_id is not an active host request"
	default:
		ev.Confirmed, ev.Reason = false, "denied: no scripted answer (default policy)"
		scripted := false
		if r.cfg.Script != nil {
			for _, a := range r.cfg.Script.Confirmations {
				if (a.Extension == "" || a.Extension == c.Extension) && strings.Contains(p.Message, a.Match) {
					ev.Confirmed, ev.Reason, scripted = a.Confirmed, "scripted", true
					break
				}
			}
		}
		q := storedQuestion{Message: p.Message, Title: ev.Title, Destructive: ev.Destructive}
		if !scripted {
			if a, ok := r.remembered(ctx, c, kindConfirm, q); ok && a.Confirmed != nil {
				ev.Confirmed, ev.Reason, scripted = *a.Confirmed, ReasonRemembered, true
			}
		}
		if !scripted && r.cfg.Asker != nil {
			// From API 0.2 on, asked only inside an active parent (the cases above deny
			// first), so the question belongs to a request the person sees running.
			ev.Reason = ReasonNoAnswer
			a, ok := r.askDurably(ctx, c, kindConfirm, q, func(id string) (storedAnswer, bool) {
				ev.ID = id
				yes, ok := r.cfg.Asker.Confirm(ctx, c.Extension, ev)
				return storedAnswer{Confirmed: &yes}, ok
			})
			if ok && a.Confirmed != nil {
				ev.Confirmed, ev.Reason = *a.Confirmed, ReasonAsked
			}
		}
	}
	r.emit(c, EventConfirmation, ev)
	return map[string]bool{"confirmed": ev.Confirmed}, nil
}

// parentText is a parent_request_id as compact JSON ("" for none).
func parentText(id *protocol.RequestID) string {
	if id == nil {
		return ""
	}
	b, err := json.Marshal(id)
	if err != nil {
		return ""
	}
	return string(b)
}

func (r *Router) parentActive(c *Caller, parent protocol.RequestID) bool {
	_, ok := r.activeParent(c, requestID(parent))
	return ok
}

// input answers input/request from the script; unanswered (headless) input
// is cancelled: {"value": null}. A secret answer goes only into the
// response (never an event, a record or a log) and into the redactor.
func (r *Router) input(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeWorded[protocol.InputRequestParams](raw, inputWording)
	if err != nil {
		return nil, err
	}
	if strings.TrimFunc(p.Prompt, unicode.IsSpace) == "" {
		// The schema's pattern asks for one non-blank ASCII character; a prompt of only
		// Unicode spaces (U+00A0, U+3000, …) is still blank to the user.
		return nil, invalidParams("prompt", "must contain a non-whitespace character")
	}
	if err := checkOptions(p.Options, p.Secret, p.AllowFreeText != nil); err != nil {
		return nil, err
	}
	_, _, _, done, err := r.withParent(ctx, c, p.ParentRequestID)
	if err != nil {
		return nil, err
	}
	defer done()
	ev := InputRequest{Parent: parentText(&p.ParentRequestID), Prompt: p.Prompt, Secret: p.Secret, Options: p.Options, AllowFreeText: p.AllowFreeText != nil && *p.AllowFreeText}
	var value *string
	scripted := false
	if r.cfg.Script != nil {
		for _, a := range r.cfg.Script.Inputs {
			if (a.Extension == "" || a.Extension == c.Extension) && strings.Contains(p.Prompt, a.Match) {
				scripted = true
				if !a.Cancel && len(a.Value) <= inputValueMaxBytes {
					v := a.Value
					value = &v
				}
				break
			}
		}
	}
	q := storedQuestion{Prompt: p.Prompt, Secret: p.Secret, Options: ev.Options, AllowFreeText: ev.AllowFreeText}
	if !scripted && !p.Secret {
		if a, ok := r.remembered(ctx, c, kindInput, q); ok && a.Value != nil {
			value, scripted = a.Value, true
		}
	}
	if !scripted && r.cfg.Asker != nil {
		a, ok := r.askDurably(ctx, c, kindInput, q, func(id string) (storedAnswer, bool) {
			ev.ID = id
			v, ok := r.cfg.Asker.Input(ctx, c.Extension, ev)
			// One verdict on every route: an answer outside the options is no answer.
			if !ok || len(v) > inputValueMaxBytes || CheckOption(ev.Options, ev.AllowFreeText, v) != nil {
				return storedAnswer{}, false
			}
			return storedAnswer{Value: &v}, true
		})
		if ok && a.Value != nil {
			value = a.Value
		}
	}
	if value != nil && CheckOption(ev.Options, ev.AllowFreeText, *value) != nil {
		value = nil // a scripted answer outside the options is no answer either
	}
	if value != nil && p.Secret {
		// Registered before the answer leaves: the frame that carries it is
		// traced and recorded redacted, and any echo of it afterwards too.
		r.red.Add(*value)
	}
	ev.Answered = value != nil
	r.emit(c, EventInput, ev)
	return map[string]*string{"value": value}, nil
}

// checkOptions adds to the schema what it cannot say: option values are unique, and a
// secret takes no options (its answer is never shown, so it cannot be chosen from a list).
func checkOptions(options []InputOption, secret, freeTextSet bool) error {
	if len(options) > 0 && secret {
		return invalidParams("options", "a secret input request takes no options")
	}
	if freeTextSet && len(options) == 0 {
		return invalidParams("allow_free_text", "applies only with options")
	}
	seen := make(map[string]int, len(options))
	for i, o := range options {
		if strings.TrimFunc(o.Value, unicode.IsSpace) == "" {
			return invalidParams(fmt.Sprintf("options[%d].value", i), "must contain a non-whitespace character")
		}
		if j, dup := seen[o.Value]; dup {
			return invalidParams(fmt.Sprintf("options[%d].value", i), "repeats options[%d].value %q", j, o.Value)
		}
		seen[o.Value] = i
	}
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
