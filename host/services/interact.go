package services

import (
	"context"
	"encoding/json"
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
	Parent      string `json:"parent_request_id,omitempty"`
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
	Prompt   string `json:"prompt"`
	Secret   bool   `json:"secret"`
	Answered bool   `json:"answered"`
}

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
		if !scripted && r.cfg.Asker != nil {
			// From API 0.2 on, asked only inside an active parent (the cases above deny
			// first), so the question belongs to a request the person sees running.
			ev.Reason = ReasonNoAnswer
			if yes, ok := r.cfg.Asker.Confirm(ctx, c.Extension, ev); ok {
				ev.Confirmed, ev.Reason = yes, ReasonAsked
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
	_, _, _, done, err := r.withParent(ctx, c, p.ParentRequestID)
	if err != nil {
		return nil, err
	}
	defer done()
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
	if !scripted && r.cfg.Asker != nil {
		if v, ok := r.cfg.Asker.Input(ctx, c.Extension, InputRequest{Parent: parentText(&p.ParentRequestID), Prompt: p.Prompt, Secret: p.Secret}); ok && len(v) <= inputValueMaxBytes {
			value = &v
		}
	}
	if value != nil && p.Secret {
		// Registered before the answer leaves: the frame that carries it is
		// traced and recorded redacted, and any echo of it afterwards too.
		r.red.Add(*value)
	}
	r.emit(c, EventInput, InputRequest{Parent: parentText(&p.ParentRequestID), Prompt: p.Prompt, Secret: p.Secret, Answered: value != nil})
	return map[string]*string{"value": value}, nil
}

func itoa(i int) string { return strconv.Itoa(i) }
