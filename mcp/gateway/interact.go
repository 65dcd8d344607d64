package gateway

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/octet-kit/octet/host/services"
)

// interact asks the MCP client, by elicitation, a confirmation or input request that an
// extension sent under a call this gateway is serving, when the client declared the
// elicitation capability. Secret input is never elicited (MCP forms must not collect
// secrets); it falls back to the script, which by default cancels it. A client error
// denies a confirmation and cancels an input.
func (g *Gateway) interact(ctx context.Context, q services.Question) (services.Answer, bool) {
	v, ok := g.calls.Load(callKey{ext: q.Extension, id: q.Parent})
	if !ok || q.Secret {
		return services.Answer{}, false
	}
	ss := v.(*call).req.Session
	init := ss.InitializeParams()
	if init == nil || init.Capabilities == nil || init.Capabilities.Elicitation == nil {
		return services.Answer{}, false
	}
	if q.Kind == services.EventConfirmation {
		msg := q.Message
		if q.Title != "" {
			msg = q.Title + ": " + msg
		}
		desc := "Confirm"
		if q.Destructive {
			desc = "Confirm (destructive)"
		}
		res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: msg, RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"confirm": map[string]any{"type": "boolean", "description": desc}},
			"required":   []string{"confirm"},
		}})
		if err != nil || res.Action != "accept" {
			return services.Answer{Confirmed: false}, true
		}
		yes, _ := res.Content["confirm"].(bool)
		return services.Answer{Confirmed: yes}, true
	}
	res, err := ss.Elicit(ctx, &mcp.ElicitParams{Mode: "form", Message: q.Prompt, RequestedSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{"value": map[string]any{"type": "string", "description": q.Prompt}},
		"required":   []string{"value"},
	}})
	if err != nil || res.Action != "accept" {
		return services.Answer{}, true
	}
	s, ok := res.Content["value"].(string)
	if !ok {
		return services.Answer{}, true
	}
	return services.Answer{Value: &s}, true
}
