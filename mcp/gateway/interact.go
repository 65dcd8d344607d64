package gateway

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/octet-kit/octet/host/services"
)

// asker is the host's services.Asker under the gateway: what the script leaves open is
// asked of the MCP client whose call it belongs to (interact), else of the next Asker.
type asker struct {
	g    *Gateway
	next services.Asker
}

func (a asker) Confirm(ctx context.Context, extension string, q services.Confirmation) (bool, bool) {
	if ans, ok := a.g.interact(ctx, question{kind: services.EventConfirmation, extension: extension, parent: q.Parent,
		message: q.Message, title: q.Title, destructive: q.Destructive}); ok {
		return ans.confirmed, true
	}
	if a.next != nil {
		return a.next.Confirm(ctx, extension, q)
	}
	return false, false
}

func (a asker) Input(ctx context.Context, extension string, q services.InputRequest) (string, bool) {
	if ans, ok := a.g.interact(ctx, question{kind: services.EventInput, extension: extension, parent: q.Parent,
		prompt: q.Prompt, secret: q.Secret, options: q.Options, freeText: q.AllowFreeText}); ok {
		if ans.value == nil {
			return "", false
		}
		return *ans.value, true
	}
	if a.next != nil {
		return a.next.Input(ctx, extension, q)
	}
	return "", false
}

// question is a confirmation or input request; answer is what the client said.
type question struct {
	kind                   services.EventKind
	extension, parent      string
	message, title, prompt string
	destructive, secret    bool
	options                []services.InputOption
	freeText               bool
}

type answer struct {
	confirmed bool
	value     *string // input; nil: cancelled
}

// interact asks the MCP client, by elicitation, a confirmation or input request that an
// extension sent under a call this gateway is serving, when the client declared the
// elicitation capability. Secret input is never elicited (MCP forms must not collect
// secrets); it falls back to the default policy, which cancels it. A client error
// denies a confirmation and cancels an input.
func (g *Gateway) interact(ctx context.Context, q question) (answer, bool) {
	v, ok := g.calls.Load(callKey{ext: q.extension, id: q.parent})
	if !ok || q.secret {
		return answer{}, false
	}
	ss := v.(*call).req.Session
	init := ss.InitializeParams()
	if init == nil || init.Capabilities == nil || init.Capabilities.Elicitation == nil {
		return answer{}, false
	}
	if q.kind == services.EventConfirmation {
		msg := q.message
		if q.title != "" {
			msg = q.title + ": " + msg
		}
		desc := "Confirm"
		if q.destructive {
			desc = "Confirm (destructive)"
		}
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"confirm": map[string]any{"type": "boolean", "description": desc}},
			"required":   []string{"confirm"},
		}})
		if err != nil || res.Action != "accept" {
			return answer{confirmed: false}, true
		}
		yes, _ := res.Content["confirm"].(bool)
		return answer{confirmed: yes}, true
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: q.prompt, RequestedSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"value": valueSchema(q)},
		"required":   []string{"value"},
	}})
	if err != nil || res.Action != "accept" {
		return answer{}, true
	}
	s, ok := res.Content["value"].(string)
	if !ok {
		return answer{}, true
	}
	return answer{value: &s}, true
}

// valueSchema is the elicited value's schema: a plain string, or with options a string enum
// of their values with their labels as enumNames, so the client offers a choice. With free
// text allowed an enum would forbid it, so the options are named in the description
// instead. Whatever the client answers, the host judges it against the options
// (services.CheckOption): one verdict on every route.
func valueSchema(q question) map[string]any {
	s := map[string]any{"type": "string", "description": q.prompt}
	if len(q.options) == 0 {
		return s
	}
	values, labels := make([]any, len(q.options)), make([]any, len(q.options))
	named := make([]string, len(q.options))
	for i, o := range q.options {
		values[i], labels[i] = o.Value, o.Label
		named[i] = o.Value + " (" + o.Label + ")"
	}
	if q.freeText {
		s["description"] = q.prompt + " — for example " + strings.Join(named, ", ") + ", or any other text"
		return s
	}
	s["enum"], s["enumNames"] = values, labels
	return s
}
