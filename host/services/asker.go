package services

import "context"

// Asker answers the confirmations and input requests the script leaves open (no script,
// or no matching entry): a person at a terminal (`octet-host call` and `run`), a page of
// the inspector. Scripted answers always come first, so a script keeps a run
// deterministic; without an Asker the default policy answers (deny, cancel).
//
// Both methods block until the answer is given or ctx ends (the request was cancelled or
// the extension stopped); ok false is "no answer", which the default policy decides.
type Asker interface {
	Confirm(ctx context.Context, extension string, q Confirmation) (confirmed, ok bool)
	// Input returns the typed value. q.Secret asks that it not be shown while typed; the
	// router adds a secret answer to the redactor before it is handed out.
	Input(ctx context.Context, extension string, q InputRequest) (value string, ok bool)
}

// Reasons a Confirmation event carries when the Asker decided.
const (
	ReasonAsked    = "answered by the user"
	ReasonNoAnswer = "denied: no answer (default policy)"
)
