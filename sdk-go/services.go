package octet

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// contributes reports whether the manifest sets a boolean contribution.
func contributes(s *session, pick func(*protocol.ManifestContributions) *bool) bool {
	c := s.manifest.Contributes
	if c == nil {
		return false
	}
	b := pick(c)
	return b != nil && *b
}

// Notify shows the user a notification (level: info, success, warning, error;
// title optional). Needs `[contributes] notifications = true`.
func (e *Extension) Notify(message, level, title string) error {
	s, err := e.ready("Notify")
	if err != nil {
		return err
	}
	if !contributes(s, func(c *protocol.ManifestContributions) *bool { return c.Notifications }) {
		return localError("Notify needs [contributes] notifications = true in the manifest")
	}
	switch level {
	case "info", "success", "warning", "error":
	default:
		return localError("notification level %q is not info, success, warning or error", level)
	}
	if n := utf8.RuneCountInString(message); n > 4096 {
		return localError("notification message of %d characters exceeds 4096", n)
	}
	params := map[string]any{"message": message, "level": level}
	if title != "" {
		params["title"] = title
	}
	return e.conn.Notify(protocol.MethodNotification, params)
}

// Confirmation is a yes/no question for the user.
type Confirmation struct {
	Message     string
	Title       string
	Destructive bool
}

// Confirm asks the user and returns their answer. Needs `[contributes]
// confirmations = true`; in API 0.2/0.4 it belongs to the ambient request.
func (e *Extension) Confirm(ctx context.Context, c Confirmation) (bool, error) {
	s, err := e.ready("Confirm")
	if err != nil {
		return false, err
	}
	if !contributes(s, func(m *protocol.ManifestContributions) *bool { return m.Confirmations }) {
		return false, localError("Confirm needs [contributes] confirmations = true in the manifest")
	}
	params := map[string]any{"message": c.Message}
	if c.Title != "" {
		params["title"] = c.Title
	}
	if c.Destructive {
		params["destructive"] = true
	}
	if s.apiVersion != "0.1" {
		st, err := e.parent(ctx, "Confirm")
		if err != nil {
			return false, err
		}
		params["parent_request_id"] = st.id
	}
	var res struct {
		Confirmed bool `json:"confirmed"`
	}
	if err := e.ask(ctx, protocol.MethodConfirmationRequest, params, &res); err != nil {
		return false, err
	}
	return res.Confirmed, nil
}

// RequestInput asks the user for text inside a handler. It returns nil when the
// user cancelled or no input is available (headless). secret input travels on a
// private channel: never log, persist or return it. API 0.2+.
//
// With WithOptions the person chooses one option and the returned value is its Value; the
// host refuses any other answer (delivered as nil) unless WithFreeText allows it.
func (e *Extension) RequestInput(ctx context.Context, prompt string, secret bool, opts ...RequestInputOption) (*string, error) {
	s, err := e.ready("RequestInput")
	if err != nil {
		return nil, err
	}
	if s.apiVersion == "0.1" {
		return nil, fmt.Errorf("octet: RequestInput needs API 0.2 or later")
	}
	if strings.TrimSpace(prompt) == "" {
		return nil, localError("input prompt is empty or whitespace")
	}
	if len(prompt) > protocol.InputPromptMaxBytes {
		return nil, localError("input prompt of %d bytes exceeds the %d-byte limit", len(prompt), protocol.InputPromptMaxBytes)
	}
	st, err := e.parent(ctx, "RequestInput")
	if err != nil {
		return nil, err
	}
	var res struct {
		Value *string `json:"value"`
	}
	params := map[string]any{"parent_request_id": st.id, "prompt": prompt, "secret": secret}
	var ir inputRequest
	for _, o := range opts {
		o(&ir)
	}
	if len(ir.options) > 0 {
		params["options"] = ir.options
	}
	if ir.freeText {
		params["allow_free_text"] = true
	}
	if err := e.ask(ctx, protocol.MethodInputRequest, params, &res); err != nil {
		return nil, err
	}
	if res.Value != nil && len(*res.Value) > protocol.InputValueMaxBytes {
		return nil, fmt.Errorf("octet: input value of %d bytes exceeds the %d-byte limit", len(*res.Value), protocol.InputValueMaxBytes)
	}
	return res.Value, nil
}

// PolicyDecision is the host's answer to an intent.
type PolicyDecision struct {
	Decision      string `json:"decision"` // allow, ask or deny
	Reason        string `json:"reason,omitempty"`
	ApprovalToken string `json:"approval_token,omitempty"` // only with ask, when approvals were negotiated
}

// EvaluatePolicy submits a structured intent before a host-managed effect. Pass
// the approval token from an earlier "ask" (needs negotiated approvals) to retry
// the exact intent; "" otherwise. Only "allow" authorises the effect.
func (e *Extension) EvaluatePolicy(ctx context.Context, intent protocol.PolicyIntent, approvalToken string) (PolicyDecision, error) {
	s, err := e.need("EvaluatePolicy", protocol.FeaturePolicyIntents)
	if err != nil {
		return PolicyDecision{}, err
	}
	st, err := e.parent(ctx, "EvaluatePolicy")
	if err != nil {
		return PolicyDecision{}, err
	}
	params := map[string]any{"parent_request_id": st.id, "intent": intent}
	if approvalToken != "" {
		if !s.features[string(protocol.FeatureApprovals)] {
			return PolicyDecision{}, featureError("an approval token", protocol.FeatureApprovals)
		}
		if !approvalTokenPattern.MatchString(approvalToken) {
			return PolicyDecision{}, localError("approval token must be 64 lowercase hex digits")
		}
		params["approval_token"] = approvalToken
	}
	var res PolicyDecision
	if err := e.ask(ctx, protocol.MethodPolicyEvaluate, params, &res); err != nil {
		return PolicyDecision{}, err
	}
	// ask checked the decision against the schema's enum and the token's form; that a
	// token comes only with ask is a rule across fields the schema cannot state, refused
	// as the Python and TypeScript SDKs refuse it.
	if res.Decision != "ask" && res.ApprovalToken != "" {
		return PolicyDecision{}, &HostResultError{Method: protocol.MethodPolicyEvaluate, Reason: "an approval_token came with decision " + res.Decision + "; tokens come only with ask"}
	}
	return res, nil
}

// GetSecret fetches a brokered secret named in the manifest's allowlist. A
// missing value or broker failure is -32004. Keep the value short-lived and out of
// logs, progress, results and storage.
func (e *Extension) GetSecret(ctx context.Context, name string) (string, error) {
	if _, err := e.need("GetSecret", protocol.FeatureSecrets); err != nil {
		return "", err
	}
	if !secretNamePattern.MatchString(name) {
		return "", localError("secret name %q must match %s", name, secretNamePattern)
	}
	st, err := e.parent(ctx, "GetSecret")
	if err != nil {
		return "", err
	}
	var res struct {
		Value string `json:"value"`
	}
	// ask checked the value's type and byte bound against the schema.
	if err := e.ask(ctx, protocol.MethodSecretGet, map[string]any{"parent_request_id": st.id, "name": name}, &res); err != nil {
		return "", err
	}
	return res.Value, nil
}

// ContributeContext pushes context items unprompted (context/contribution). Needs
// `[contributes] context = true`.
func (e *Extension) ContributeContext(items []ContextItem) error {
	s, err := e.ready("ContributeContext")
	if err != nil {
		return err
	}
	if !contributes(s, func(c *protocol.ManifestContributions) *bool { return c.Context }) {
		return localError("ContributeContext needs [contributes] context = true in the manifest")
	}
	if items == nil {
		items = []ContextItem{}
	}
	return e.conn.Notify(protocol.MethodContextContribution, map[string]any{"items": items})
}

// ContributeStatus pushes a status surface's text unprompted (status/contribution).
func (e *Extension) ContributeStatus(status StatusResult) error {
	s, err := e.ready("ContributeStatus")
	if err != nil {
		return err
	}
	declared := false
	if c := s.manifest.Contributes; c != nil {
		for _, u := range c.UI {
			declared = declared || u == status.Surface
		}
	}
	if !declared {
		return localError("ContributeStatus: surface %q is not declared in the manifest's contributes.ui", status.Surface)
	}
	if n := utf8.RuneCountInString(status.Text); n > 1024 {
		return localError("status text of %d characters exceeds 1024", n)
	}
	return e.conn.Notify(protocol.MethodStatusContribution, status)
}

// PublishContext is ContributeContext under its old name.
//
// Deprecated: use ContributeContext, named for the wire's context/contribution as in Python
// and TypeScript (docs/glossary.md); PublishContext goes in the release after next.
func (e *Extension) PublishContext(items []ContextItem) error { return e.ContributeContext(items) }

// PublishStatus is ContributeStatus under its old name.
//
// Deprecated: use ContributeStatus, named for the wire's status/contribution as in Python and
// TypeScript (docs/glossary.md); PublishStatus goes in the release after next.
func (e *Extension) PublishStatus(status StatusResult) error { return e.ContributeStatus(status) }
