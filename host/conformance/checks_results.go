package conformance

import (
	"encoding/json"
	"strings"

	"github.com/octet-kit/octet/sdk-go/protocol"
)

// The host-result check: an SDK judges every host answer by the schema's result type
// before its helpers read it, so a host answering the wrong shape is refused alike in
// every language instead of being acted on (or read as zero values) in one of them.

func init() {
	register(&Check{
		Name:        "results.host_checked",
		Description: "a policy/evaluate result of the wrong shape (an unknown decision, an unknown field, a mistyped token) fails the handler with -32603 naming the method, instead of being acted on; the next call is served",
		Requirement: "schema/methods.json policy/evaluate result type PolicyEvaluateResult; schema/README.md (the schema is the contract in both directions)",
		Tier:        Conditional,
		Tools:       []string{"policy"},
		Features:    []protocol.Feature{protocol.FeaturePolicyIntents},
		Covers:      []string{protocol.MethodPolicyEvaluate},
		Run:         checkHostResults,
	})
}

func checkHostResults(t *T) error {
	s, _, err := t.Open(InitOptions{})
	if err != nil {
		return err
	}
	for _, bad := range []string{`{"decision":"maybe"}`, `{"decision":"allow","conformance_extra":1}`, `{"decision":"ask","approval_token":7}`} {
		s.services.Answer(protocol.MethodPolicyEvaluate, json.RawMessage(bad))
		resp, err := t.toolCall(s, "policy", map[string]any{"operation": PolicyAllowed})
		if err != nil {
			return err
		}
		if err := expectCode(resp, -32603, "the host answered policy/evaluate with "+bad); err != nil {
			return err
		}
		if !strings.Contains(resp.Error.Message, protocol.MethodPolicyEvaluate) {
			return fail("the -32603 message to name policy/evaluate", "%q", resp.Error.Message)
		}
	}
	resp, err := t.toolCall(s, "policy", map[string]any{"operation": PolicyAllowed})
	if err != nil {
		return err
	}
	_, err = expectText(resp, "evaluated")
	return err
}
