package conformance

import (
	"encoding/json"
	"fmt"
)

// approval is what a one-use approval token is bound to: the intent's operation
// and the host request it was issued under (the reference host binds the whole
// canonical intent, owner and parent; the operation stands for the intent here).
type approval struct {
	operation string
	parent    string
}

// Policy rules of the conformance host, by intent operation (any other: deny).
const (
	PolicyAllowed = "read"   // allow
	PolicyAsked   = "write"  // ask, with a one-use approval token
	PolicyDenied  = "delete" // deny, with a reason
)

// policy decides an intent by its operation; a presented token turns the exact
// "ask" it was issued for into "allow" once, under the same parent request.
func (v *Services) policy(p map[string]json.RawMessage) (any, *RPCError) {
	var req struct {
		Intent struct {
			Kind      string `json:"kind"`
			Operation string `json:"operation"`
		} `json:"intent"`
		Token *string `json:"approval_token"`
	}
	raw, _ := json.Marshal(p)
	if err := json.Unmarshal(raw, &req); err != nil || req.Intent.Kind == "" || req.Intent.Operation == "" {
		return nil, invalid("intent needs non-empty kind and operation")
	}
	parent := string(p["parent_request_id"])
	v.mu.Lock()
	defer v.mu.Unlock()
	if req.Token != nil {
		a, ok := v.approvals[*req.Token]
		delete(v.approvals, *req.Token)
		if ok && a.operation == req.Intent.Operation && a.parent == parent {
			return map[string]any{"decision": "allow", "reason": "approved"}, nil
		}
		return map[string]any{"decision": "deny", "reason": "the approval token is unknown, used, or bound to another intent or parent"}, nil
	}
	switch req.Intent.Operation {
	case PolicyAllowed:
		return map[string]any{"decision": "allow"}, nil
	case PolicyAsked:
		if v.approvals == nil {
			v.approvals = map[string]approval{}
		}
		token := sha([]byte(fmt.Sprintf("conformance-approval-%d", len(v.calls))))
		v.approvals[token] = approval{operation: req.Intent.Operation, parent: parent}
		return map[string]any{"decision": "ask", "reason": "writes need approval", "approval_token": token}, nil
	}
	return map[string]any{"decision": "deny", "reason": "no rule allows " + req.Intent.Operation}, nil
}
