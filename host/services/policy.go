package services

import (
	"context"
	"encoding/json"
	"path"
	"regexp"

	"github.com/octet-kit/octet/host/store"
)

var tokenPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

type policyParams struct {
	Parent json.RawMessage `json:"parent_request_id"`
	Intent intent          `json:"intent"`
	Token  *string         `json:"approval_token,omitempty"`
}

type intent struct {
	Kind         string          `json:"kind"`
	Operation    string          `json:"operation"`
	Target       json.RawMessage `json:"target,omitempty"`
	DataClasses  []string        `json:"data_classes,omitempty"`
	AdapterHints *adapterHints   `json:"adapter_hints,omitempty"`
}

type adapterHints struct {
	ReadOnly    *bool `json:"read_only,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
}

type policyResult struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
	Token    string `json:"approval_token,omitempty"`
}

// policyEvaluate decides an intent with the script's rules (first match
// wins; no match denies). Adapter hints are recorded intent, not authority:
// they never change the decision. An approved "ask" issues a one-use token
// bound to the canonical intent, principal, owner, parent and generation;
// presenting it again with the identical intent under the same parent is
// the only way to turn it into "allow".
func (r *Router) policyEvaluate(ctx context.Context, c *Caller, raw json.RawMessage) (any, error) {
	var p policyParams
	if err := decodeParams(raw, &p); err != nil {
		return nil, err
	}
	if p.Intent.Kind == "" || p.Intent.Operation == "" {
		return nil, invalidParams("intent", "kind and operation must be non-empty")
	}
	if len(p.Intent.Target) > 0 && !isObject(p.Intent.Target) {
		return nil, invalidParams("intent.target", "must be an object")
	}
	if p.Token != nil {
		if !c.Features["approvals"] {
			return nil, invalidParams("approval_token", "the approvals feature was not negotiated")
		}
		if !tokenPattern.MatchString(*p.Token) {
			return nil, invalidParams("approval_token", "must be 64 lowercase hex digits")
		}
	}
	_, owner, parent, done, err := r.withParent(ctx, c, p.Parent)
	if err != nil {
		return nil, err
	}
	defer done()
	binding, err := approvalBinding(c, owner, idText(parent), p.Intent)
	if err != nil {
		return nil, invalidParams("intent", "%v", err)
	}
	if p.Token != nil {
		ok, err := r.store.RedeemApproval(ctx, store.Digest([]byte(*p.Token)), binding, r.now().UnixMilli())
		if err != nil {
			return nil, internal("approval: %v", err)
		}
		if ok {
			return policyResult{Decision: "allow", Reason: "approved"}, nil
		}
		return policyResult{Decision: "deny", Reason: "the approval token is unknown, expired, already used, or bound to another intent, parent or generation"}, nil
	}
	res := policyResult{Decision: "deny", Reason: "no policy rule matches (default deny)"}
	if r.cfg.Script != nil {
		for _, rule := range r.cfg.Script.Policy {
			if rule.Extension != "" && rule.Extension != c.Extension {
				continue
			}
			if !globMatch(rule.Kind, p.Intent.Kind) || !globMatch(rule.Operation, p.Intent.Operation) {
				continue
			}
			res = policyResult{Decision: rule.Decision, Reason: rule.Reason}
			if rule.Decision == "ask" && rule.Approve && c.Features["approvals"] {
				tok, err := r.randomHex(32)
				if err != nil {
					return nil, internal("approval token: %v", err)
				}
				exp := r.now().Add(r.cfg.ApprovalTTL).UnixMilli()
				if err := r.store.PutApproval(ctx, store.Digest([]byte(tok)), binding, exp); err != nil {
					return nil, internal("approval: %v", err)
				}
				res.Token = tok
			}
			break
		}
	}
	return res, nil
}

// approvalBinding digests everything a token is bound to. The intent is
// canonicalised so key order or number spelling do not matter, while any
// change of meaning does.
func approvalBinding(c *Caller, owner Owner, parent string, in intent) (string, error) {
	b, err := json.Marshal(struct {
		Principal string `json:"principal"`
		Owner     Owner  `json:"owner"`
		Instance  string `json:"instance"`
		Gen       int64  `json:"generation"`
		Parent    string `json:"parent"`
		Intent    intent `json:"intent"`
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
