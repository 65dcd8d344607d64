package services

import (
	"context"
	"encoding/json"
)

// Answerer answers confirmation/request and input/request interactively: a person at the
// `octet-host dev` page (or a terminal) instead of a script. The router asks it only
// when the script has no matching answer, and only for a request under an active parent
// (or an API 0.1 request without one); its context ends when the parent request settles,
// the extension cancels, or the process goes away, and the answerer must then return.
type Answerer interface {
	// Confirm returns the person's answer; answered false falls through to the default
	// policy (denied).
	Confirm(ctx context.Context, c *Caller, q Confirmation) (confirmed, answered bool)
	// Input returns the typed value; answered false (or a nil value) cancels the request
	// ({"value": null}). A secret answer is registered with the redactor by the router.
	Input(ctx context.Context, c *Caller, q InputRequest) (value *string, answered bool)
}

// askConfirmation asks the configured Answerer, bounding the question by the parent
// request when there is one, so a settled or cancelled call withdraws it.
func (r *Router) askConfirmation(ctx context.Context, c *Caller, parent json.RawMessage, q Confirmation) (confirmed, answered bool) {
	if r.cfg.Answerer == nil {
		return false, false
	}
	if len(parent) > 0 {
		pctx, _, _, done, err := r.withParent(ctx, c, parent)
		if err != nil {
			return false, false
		}
		defer done()
		ctx = pctx
	}
	return r.cfg.Answerer.Confirm(ctx, c, q)
}
