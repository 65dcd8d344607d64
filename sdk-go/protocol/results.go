package protocol

import "errors"

// ResultChecker is implemented by a result type with a rule across its members that the
// schema cannot state; an SDK's Send refuses a result that breaks it, as the Python and
// TypeScript SDKs do.
type ResultChecker interface{ CheckResult() error }

// CheckResult: an approval token comes only with decision ask.
func (r *PolicyEvaluateResult) CheckResult() error {
	if r.Decision != "ask" && r.ApprovalToken != nil && *r.ApprovalToken != "" {
		return errors.New("an approval_token came with decision " + r.Decision + "; tokens come only with ask")
	}
	return nil
}
