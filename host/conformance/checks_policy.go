package conformance

import (
	"encoding/json"
	"fmt"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The policy check: allow, ask with a one-use approval token redeemed in the same
// handler, deny, and host errors carried verbatim.

func init() {
	register(&Check{
		Name:        "policy.decisions",
		Description: "policy/evaluate answers allow, deny and ask reach the handler; an ask's approval token goes back unchanged under the same parent and intent and turns into allow; host errors are carried verbatim",
		Requirement: "wire.md §6 policy/evaluate (approval_token only with ask; one-use); docs/host-script.md: policy rules and one-use approval tokens",
		Tier:        Conditional,
		Tools:       []string{"policy"},
		Features:    []protocol.Feature{protocol.FeaturePolicyIntents, protocol.FeatureApprovals},
		Covers: []string{
			protocol.MethodPolicyEvaluate,
			reqError(protocol.MethodPolicyEvaluate, protocol.CodeInvalidParams),
			reqError(protocol.MethodPolicyEvaluate, protocol.CodeServiceUnavailable),
		},
		Run: checkPolicy,
	})
}

// refusal is a host error with data, so "carried verbatim" covers all three fields.
func refusal(code int64, message string) *RPCError {
	return &RPCError{Code: code, Message: message, Data: mustJSON(map[string]any{"reason": "conformance"})}
}

// expectCarried checks a response is exactly the error the host answered the
// extension's last request of method with.
func expectCarried(resp Response, s *Session, method string) error {
	want := s.services.LastError(method)
	if want == nil {
		return fail("the extension to have received an error for its "+method, "the host answered it without error; got %s", resp)
	}
	return expectVerbatim(resp, want, method+" refused by the host")
}

// expectVerbatim checks a response is exactly the host error want.
func expectVerbatim(resp Response, want *RPCError, what string) error {
	exp := fmt.Sprintf("%s: the host's error %d %q with its data, carried verbatim", what, want.Code, want.Message)
	if resp.Error == nil {
		return fail(exp, "%s", resp)
	}
	if resp.Error.Code != want.Code || resp.Error.Message != want.Message || !jsonEqual(resp.Error.Data, want.Data) {
		return fail(exp, "error %d %q data %s", resp.Error.Code, resp.Error.Message, resp.Error.Data)
	}
	return nil
}

func checkPolicy(t *T) error {
	s, r, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	for _, f := range []protocol.Feature{protocol.FeaturePolicyIntents, protocol.FeatureApprovals} {
		if err := needFeature(r, f); err != nil {
			return err
		}
	}
	for _, c := range []struct{ op, want string }{
		{PolicyAllowed, `{"decision":"allow","redeemed":null}`},
		{PolicyDenied, `{"decision":"deny","redeemed":null}`},
		{PolicyAsked, `{"decision":"ask","redeemed":"allow"}`},
	} {
		resp, err := t.toolCall(s, "policy", map[string]any{"operation": c.op})
		if err != nil {
			return err
		}
		var got json.RawMessage
		if err := structured(resp, &got); err != nil {
			return fmt.Errorf("policy %s: %w", c.op, err)
		}
		if !jsonEqual(got, []byte(c.want)) {
			return fail(fmt.Sprintf("operation %q: structured_content %s", c.op, c.want), "%s", excerpt(got, 200))
		}
	}
	// The ask and its redemption: the same parent, the same intent, the token unchanged.
	calls := s.services.Calls(protocol.MethodPolicyEvaluate)
	if len(calls) != 4 {
		return fail("4 policy/evaluate requests (allow, deny, ask, redeem)", "%d", len(calls))
	}
	var ask, redeem struct {
		Parent json.RawMessage `json:"parent_request_id"`
		Intent json.RawMessage `json:"intent"`
		Token  *string         `json:"approval_token"`
	}
	_ = json.Unmarshal(calls[2].Params, &ask)
	_ = json.Unmarshal(calls[3].Params, &redeem)
	if ask.Token != nil || redeem.Token == nil || string(ask.Parent) != string(redeem.Parent) || !jsonEqual(ask.Intent, redeem.Intent) {
		return fail("the redemption to repeat the ask's intent and parent with the issued approval_token", "ask %s; redeem %s", excerpt(calls[2].Params, 200), excerpt(calls[3].Params, 260))
	}
	for _, code := range []int64{-32602, -32002} {
		want := refusal(code, fmt.Sprintf("conformance policy refusal %d", code))
		s.services.Refuse(protocol.MethodPolicyEvaluate, want)
		resp, err := t.toolCall(s, "policy", map[string]any{"operation": PolicyAllowed})
		if err != nil {
			return err
		}
		if err := expectVerbatim(resp, want, "policy/evaluate refused"); err != nil {
			return err
		}
	}
	return nil
}
