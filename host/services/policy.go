package services

import (
	"context"
	"encoding/json"
	"path"

	"github.com/octet-kit/octet/host/store"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// policyWording keeps the reason policy/evaluate has always given for a malformed token.
var policyWording = wording{
	"/approval_token pattern": func(string) string { return "must be 64 lowercase hex digits" },
}

// policyEvaluate decides an intent with the script's rules (first match
// wins; no match denies). Adapter hints are recorded intent, not authority:
// they never change the decision. An approved "ask" issues a one-use token
// bound to the canonical intent, principal, owner, parent and generation;
// presenting it again with the identical intent under the same parent is
// the only way to turn it into "allow".
func (r *Router) policyEvaluate(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	p, err := decodeWorded[protocol.PolicyEvaluateParams](raw, policyWording)
	if err != nil {
		return nil, err
	}
	// The schema lets kind and operation be any string; an empty one names no intent.
	if p.Intent.Kind == "" || p.Intent.Operation == "" {
		return nil, invalidParams("intent", "kind and operation must be non-empty")
	}
	if p.ApprovalToken != nil && !c.Features[string(protocol.FeatureApprovals)] {
		return nil, invalidParams("approval_token", "the approvals feature was not negotiated")
	}
	_, owner, parent, done, err := r.withParent(ctx, c, p.ParentRequestID)
	if err != nil {
		return nil, err
	}
	defer done()
	binding, err := approvalBinding(c, owner, idText(parent), p.Intent)
	if err != nil {
		return nil, invalidParams("intent", "%v", err)
	}
	if p.ApprovalToken != nil {
		ok, err := r.store.RedeemApproval(ctx, store.Digest([]byte(*p.ApprovalToken)), binding, r.now().UnixMilli())
		if err != nil {
			return nil, internal("approval: %v", err)
		}
		if ok {
			return protocol.PolicyEvaluateResult{Decision: "allow", Reason: optional("approved")}, nil
		}
		return protocol.PolicyEvaluateResult{Decision: "deny", Reason: optional("the approval token is unknown, expired, already used, or bound to another intent, parent or generation")}, nil
	}
	res := protocol.PolicyEvaluateResult{Decision: "deny", Reason: optional("no policy rule matches (default deny)")}
	if r.cfg.Script != nil {
		for _, rule := range r.cfg.Script.Policy {
			if rule.Extension != "" && rule.Extension != c.Extension {
				continue
			}
			if !globMatch(rule.Kind, p.Intent.Kind) || !globMatch(rule.Operation, p.Intent.Operation) {
				continue
			}
			res = protocol.PolicyEvaluateResult{Decision: rule.Decision, Reason: optional(rule.Reason)}
			if rule.Decision == "ask" && rule.Approve && c.Features[string(protocol.FeatureApprovals)] {
				tok, err := r.randomHex(32)
				if err != nil {
					return nil, internal("approval token: %v", err)
				}
				exp := r.now().Add(r.cfg.ApprovalTTL).UnixMilli()
				if err := r.store.PutApproval(ctx, store.Digest([]byte(tok)), binding, exp); err != nil {
					return nil, internal("approval: %v", err)
				}
				res.ApprovalToken = &tok
			}
			break
		}
	}
	return res, nil
}

// approvalBinding digests everything a token is bound to. The intent is
// canonicalised so key order or number spelling do not matter, while any
// change of meaning does.
func approvalBinding(c *Caller, owner Owner, parent string, in protocol.PolicyIntent) (string, error) {
	b, err := json.Marshal(struct {
		Principal string                `json:"principal"`
		Owner     Owner                 `json:"owner"`
		Instance  string                `json:"instance"`
		Gen       int64                 `json:"generation"`
		Parent    string                `json:"parent"`
		Intent    protocol.PolicyIntent `json:"intent"`
	}{c.Principal, owner, c.InstanceID, c.Generation, parent, in})
	if err != nil {
		return "", err
	}
	canon, err := store.Canonical(b)
	if err != nil {
		return "", err
	}
	return store.Digest(canon), nil
}

func globMatch(pattern, s string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	ok, err := path.Match(pattern, s)
	return err == nil && ok
}
