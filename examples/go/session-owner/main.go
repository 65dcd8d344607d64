// Command session-owner owns session policy (docs/host.md#the-session-owner): its
// before_prompt hook judges every prompt before the model sees it. A prompt naming a
// denied topic is blocked; a prompt the policy cannot judge (control characters) makes the
// hook fail, and because this extension is the owner the host stops the turn rather than
// letting the prompt through. audit_log is private: hidden from the model's catalog.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"unicode"

	octet "github.com/octet-kit/octet/sdk-go"
)

// deniedTopics are the words this policy blocks.
var deniedTopics = []string{"password", "credit card"}

func main() {
	ext := octet.New(octet.Options{})
	var judged, blocked atomic.Int64

	ext.Hook("before_prompt", func(ctx context.Context, payload json.RawMessage) (octet.HookResult, error) {
		var p struct {
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(payload, &p); err != nil {
			return octet.HookResult{}, err
		}
		judged.Add(1)
		if strings.ContainsFunc(p.Prompt, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }) {
			return octet.HookResult{}, errors.New("the policy cannot judge a prompt with control characters")
		}
		lower := strings.ToLower(p.Prompt)
		for _, topic := range deniedTopics {
			if strings.Contains(lower, topic) {
				blocked.Add(1)
				return octet.Block("the session policy does not allow prompts about " + topic), nil
			}
		}
		return octet.Continue(), nil
	})
	octet.Tool(ext, octet.ToolSpec{Name: "policy_status", Description: "Say which topics the session policy blocks"},
		func(ctx context.Context, a struct{}) (octet.Result, error) {
			return octet.Text("blocked topics: " + strings.Join(deniedTopics, ", ")), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "audit_log", Description: "Count the prompts the policy judged and blocked (private to the owner)"},
		func(ctx context.Context, a struct{}) (octet.Result, error) {
			return octet.Text(fmt.Sprintf("%d prompts judged, %d blocked", judged.Load(), blocked.Load())), nil
		})
	ext.Run()
}
