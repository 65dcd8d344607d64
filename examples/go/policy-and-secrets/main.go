// Command policy-and-secrets asks host policy before an external effect (retrying once with
// a one-use approval token), confirms with the user, and uses a brokered secret that never
// reaches results or logs: the Go twin of the Python and TypeScript examples.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

type commentArgs struct {
	Text string `json:"text" jsonschema:"maxLength=2000"`
}

// refused is an is_error result: the tool ran and says why it did nothing.
func refused(text string) octet.Result {
	r := octet.Text(text)
	r.IsError = true
	return r
}

func main() {
	ext := octet.New(octet.Options{})
	octet.Tool(ext, octet.ToolSpec{Name: "submit_comment", Description: "Submit a comment to example.com after policy approval"},
		func(ctx context.Context, a commentArgs) (octet.Result, error) {
			target, _ := json.Marshal(map[string]string{"origin": "https://example.com", "label": "Publish comment"})
			intent := protocol.PolicyIntent{
				Kind: "external_side_effect", Operation: "browser.submit_form", Target: target,
				DataClasses:  []string{"user_text"},
				AdapterHints: &protocol.AdapterHints{ReadOnly: octet.Ptr(false), Destructive: octet.Ptr(false)},
			}
			policy, err := ext.Policy.Evaluate(ctx, intent)
			if err != nil {
				return octet.Result{}, err
			}
			if policy.Decision == "ask" && policy.ApprovalToken != nil && ext.HasFeature(string(protocol.FeatureApprovals)) {
				if policy, err = ext.Policy.Evaluate(ctx, intent, octet.PolicyEvaluateOptions{ApprovalToken: policy.ApprovalToken}); err != nil {
					return octet.Result{}, err
				}
			}
			if policy.Decision != "allow" {
				why := policy.Decision
				if policy.Reason != nil && *policy.Reason != "" {
					why = *policy.Reason
				}
				return refused("The host denied the action: " + why + "."), nil
			}
			answer, err := ext.UI.Confirm(ctx, "Publish this comment?", octet.UIConfirmOptions{Title: octet.Ptr("policy-and-secrets")})
			if err != nil {
				return octet.Result{}, err
			}
			if !answer.Confirmed {
				return refused("The user declined."), nil
			}
			secret, err := ext.Secrets.Get(ctx, "demo.api_token")
			if err != nil {
				return octet.Result{}, err
			}
			// Only a digest prefix leaves this function; the token is never returned or logged.
			h := sha256.New()
			h.Write([]byte(secret.Value))
			h.Write([]byte(a.Text))
			proof := hex.EncodeToString(h.Sum(nil))[:12]
			_ = ext.UI.Notify(ctx, "Comment submitted", octet.UINotifyOptions{Level: "success"})
			return octet.Text(fmt.Sprintf("Submitted (%d chars, signature %s).", utf8.RuneCountInString(a.Text), proof)), nil
		})
	ext.Run()
}
