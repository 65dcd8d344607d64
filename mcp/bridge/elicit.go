package bridge

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	octet "github.com/octet-kit/octet/sdk-go"
)

// elicitation answers an MCP elicitation/create with octet input requests under the
// call it belongs to: the context's octet request when the MCP SDK runs it within the
// call (multi-round-trip), else the server's newest call under way. Without a call there
// is no user to ask: the elicitation is declined.
func (u *upstream) elicitation(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	callCtx := ctx
	if _, ok := octet.RequestID(ctx); !ok {
		c := u.latestInflight()
		if c == nil {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}
		callCtx = c.ctx
	}
	return u.b.elicit(callCtx, req.Params)
}

// elicit asks one input request per field of the requested schema (in name order), the
// prompt naming the field, its type, description and choices; an answer is converted to
// the field's type. A cancelled input (null) cancels the elicitation; an empty answer
// leaves an optional field out. A URL-mode elicitation asks the user to open the URL.
func (b *Bridge) elicit(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	if p.Mode == "url" {
		v, err := b.input(ctx, fmt.Sprintf("%s\nOpen %s, then answer to continue.", p.Message, p.URL))
		if err != nil {
			return nil, err
		}
		if v == nil {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	schema, err := schemaObject(p.RequestedSchema)
	if err != nil {
		return nil, fmt.Errorf("elicitation requestedSchema: %v", err)
	}
	props, _ := schema["properties"].(map[string]any)
	required := map[string]bool{}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	content := map[string]any{}
	for _, name := range names {
		prop, _ := props[name].(map[string]any)
		typ, _ := prop["type"].(string)
		v, err := b.input(ctx, fieldPrompt(p.Message, name, prop, required[name]))
		if err != nil {
			return nil, err
		}
		if v == nil {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		}
		ans := strings.TrimSpace(*v)
		if ans == "" {
			if def, ok := prop["default"]; ok {
				content[name] = def
				continue
			}
			if !required[name] {
				continue
			}
		}
		val, err := fieldValue(typ, prop, ans)
		if err != nil {
			return nil, fmt.Errorf("elicitation field %s: %v", name, err)
		}
		content[name] = val
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

func fieldPrompt(message, name string, prop map[string]any, required bool) string {
	var sb strings.Builder
	sb.WriteString(message)
	fmt.Fprintf(&sb, "\n%s", name)
	if t, ok := prop["type"].(string); ok {
		fmt.Fprintf(&sb, " (%s", t)
		if !required {
			sb.WriteString(", optional: empty to skip")
		}
		sb.WriteString(")")
	}
	if d, ok := prop["description"].(string); ok && d != "" {
		fmt.Fprintf(&sb, ": %s", d)
	}
	if c := choices(prop); len(c) > 0 {
		fmt.Fprintf(&sb, " [one of: %s]", strings.Join(c, ", "))
	}
	if items, ok := prop["items"].(map[string]any); ok {
		if c := choices(items); len(c) > 0 {
			fmt.Fprintf(&sb, " [comma-separated, from: %s]", strings.Join(c, ", "))
		}
	}
	if def, ok := prop["default"]; ok {
		fmt.Fprintf(&sb, " (empty for the default %v)", def)
	}
	return sb.String()
}

// fieldValue converts an answer to a primitive of the elicitation schema's type.
func fieldValue(typ string, prop map[string]any, ans string) (any, error) {
	switch typ {
	case "boolean":
		switch strings.ToLower(ans) {
		case "true", "yes", "y", "1":
			return true, nil
		case "false", "no", "n", "0":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not yes/no", ans)
	case "integer":
		n, err := strconv.ParseInt(ans, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", ans)
		}
		return n, nil
	case "number":
		f, err := strconv.ParseFloat(ans, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", ans)
		}
		return f, nil
	case "array":
		items, _ := prop["items"].(map[string]any)
		var out []any
		for _, part := range strings.Split(ans, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			v, err := fieldValue(stringOr(items["type"], "string"), items, part)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	if c := choices(prop); len(c) > 0 {
		for _, x := range c {
			if x == ans {
				return ans, nil
			}
		}
		return nil, fmt.Errorf("%q is not one of %s", ans, strings.Join(c, ", "))
	}
	return ans, nil
}

// choices are the string values an elicitation field allows: enum, or the consts of
// oneOf/anyOf (titled enums).
func choices(prop map[string]any) []string {
	var out []string
	if e, ok := prop["enum"].([]any); ok {
		for _, x := range e {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts, ok := prop[key].([]any); ok {
			for _, a := range alts {
				if m, ok := a.(map[string]any); ok {
					if s, ok := m["const"].(string); ok {
						out = append(out, s)
					}
				}
			}
		}
	}
	return out
}

func stringOr(v any, def string) string {
	if s, ok := v.(string); ok {
		return s
	}
	return def
}

// input asks the user for text: nil when they cancelled or no input is available.
func (b *Bridge) input(ctx context.Context, prompt string) (*string, error) {
	res, err := b.ext.UI.RequestInput(ctx, prompt)
	if err != nil || !res.Value.Valid {
		return nil, err
	}
	return &res.Value.Value, nil
}
