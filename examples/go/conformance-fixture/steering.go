package main

import (
	"context"
	"fmt"
	"strings"

	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// registerSteering: notifications, pushed contributions, policy, kv.list and the
// agent/* methods after spawn.
func registerSteering(ext *octet.Extension) {
	octet.Tool(ext, octet.ToolSpec{Name: "notify", Description: "Show a notification"},
		func(ctx context.Context, a struct {
			Message string `json:"message"`
			Level   string `json:"level" jsonschema:"enum=info,enum=success,enum=warning,enum=error"`
			Title   string `json:"title,omitempty"`
		}) (octet.Result, error) {
			if err := ext.UI.Notify(ctx, a.Message, octet.UINotifyOptions{Level: a.Level, Title: optional(a.Title)}); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("notified"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "notify_n", Description: "Send n info notifications of about size characters, then answer {sent: n}"},
		func(ctx context.Context, a struct {
			N    int `json:"n" jsonschema:"minimum=0"`
			Size int `json:"size" jsonschema:"minimum=0"`
		}) (octet.Result, error) {
			for i := 1; i <= a.N; i++ {
				if err := ext.UI.Notify(ctx, noteText(i, a.Size)); err != nil {
					return octet.Result{}, err
				}
			}
			return octet.Text("notified").WithStructured(map[string]any{"sent": a.N}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "contribute", Description: "Push a context item and a status line"},
		func(ctx context.Context, a struct {
			Text string `json:"text"`
		}) (octet.Result, error) {
			if err := ext.UI.ContributeContext(ctx, []octet.ContextItem{{Label: "fixture", Content: a.Text, Placement: "prompt_prefix"}}); err != nil {
				return octet.Result{}, err
			}
			if err := ext.UI.ContributeStatus(ctx, "status", a.Text, octet.UIContributeStatusOptions{Priority: 1}); err != nil {
				return octet.Result{}, err
			}
			return octet.Text("contributed"), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "policy", Description: "Evaluate an intent; redeem an ask's approval token"},
		func(ctx context.Context, a struct {
			Operation string `json:"operation"`
		}) (octet.Result, error) {
			intent := protocol.PolicyIntent{Kind: "fixture", Operation: a.Operation}
			first, err := ext.Policy.Evaluate(ctx, intent)
			if err != nil {
				return octet.Result{}, err
			}
			var redeemed any
			if first.Decision == "ask" && first.ApprovalToken != nil {
				second, err := ext.Policy.Evaluate(ctx, intent, octet.PolicyEvaluateOptions{ApprovalToken: first.ApprovalToken})
				if err != nil {
					return octet.Result{}, err
				}
				redeemed = second.Decision
			}
			return octet.Text("evaluated").WithStructured(map[string]any{"decision": first.Decision, "redeemed": redeemed}), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "kv_list", Description: "Pass through to the KV list"},
		func(ctx context.Context, a struct {
			Namespace string `json:"namespace"`
			Prefix    string `json:"prefix"`
			Cursor    string `json:"cursor,omitempty"`
			Limit     int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=1000"`
		}) (octet.Result, error) {
			res, err := ext.KV.List(ctx, a.Prefix, octet.KVListOptions{Namespace: a.Namespace, Cursor: optional(a.Cursor), Limit: optional(int64(a.Limit))})
			if err != nil {
				return octet.Result{}, err
			}
			return octet.Text("listed").WithStructured(res), nil
		})
	octet.Tool(ext, octet.ToolSpec{Name: "agent_op", Description: "One agent/* call after spawn"},
		func(ctx context.Context, a struct {
			Op      string `json:"op" jsonschema:"enum=message,enum=follow_up,enum=models,enum=list,enum=interrupt,enum=wait"`
			Target  string `json:"target,omitempty"`
			Message string `json:"message,omitempty"`
			Query   string `json:"query,omitempty"`
			Limit   int    `json:"limit,omitempty"`
		}) (octet.Result, error) {
			var out any
			var err error
			switch a.Op {
			case "message":
				var res protocol.AgentMessageResult
				res, err = ext.Agents.Message(ctx, a.Target, a.Message)
				out = map[string]any{"accepted": res.Accepted}
			case "follow_up":
				var res protocol.AgentMessageResult
				res, err = ext.Agents.FollowUp(ctx, a.Target, a.Message)
				out = map[string]any{"accepted": res.Accepted}
			case "models":
				var res protocol.AgentModelsResult
				res, err = ext.Agents.Models(ctx, octet.AgentsModelsOptions{Query: optional(a.Query), Limit: int64(a.Limit)})
				out = res
			case "list":
				var res protocol.AgentListResult
				res, err = ext.Agents.List(ctx)
				out = res
			case "interrupt":
				var res protocol.AgentInterruptResult
				res, err = ext.Agents.Interrupt(ctx, a.Target)
				out = map[string]any{"interrupted": res.Interrupted}
			case "wait":
				var res protocol.AgentWaitResult
				res, err = ext.Agents.Wait(ctx, octet.AgentsWaitOptions{TimeoutMS: 1000})
				out = map[string]any{"timed_out": res.TimedOut}
			default:
				return octet.Result{}, octet.Fail(protocol.CodeInvalidParams, fmt.Sprintf("unknown op %q", a.Op), nil)
			}
			if err != nil {
				return octet.Result{}, err // host errors propagate verbatim
			}
			return octet.Text("steered").WithStructured(out), nil
		})
}

// noteText is notify_n's i-th message: "note <i>" padded with dots to size characters.
func noteText(i, size int) string {
	s := fmt.Sprintf("note %d", i)
	if len(s) < size {
		s += strings.Repeat(".", size-len(s))
	}
	return s
}

// optional is nil for the zero value (an option left out), else a pointer to v.
func optional[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}
