package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	octet "github.com/octet-kit/octet/sdk-go"
	"github.com/octet-kit/octet/sdk-go/protocol"
)

// octetToolName is the host's tool-name rule.
var octetToolName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$`)

// invalidRune is what an MCP tool name may hold and an octet one may not.
var invalidRune = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// ToolName is the octet name of MCP tool tool of server: "<server>_<tool>", with every
// character octet names do not allow ('.', '/', …) replaced by '_'.
func ToolName(server, tool string) string {
	return server + "_" + invalidRune.ReplaceAllString(tool, "_")
}

// catalogTimeout bounds one tools/replace exchange with the host.
const catalogTimeout = 30 * time.Second

// Withheld is one tool of a server the bridge does not publish, and why: its octet name
// is invalid or taken, its description is too long, or a schema does not compile.
// Pointer is the JSON pointer of the fault in the MCP tool definition
// ("/inputSchema/properties/when/pattern"). The server's other tools are published.
type Withheld struct {
	Tool    string `json:"tool"`
	Pointer string `json:"pointer"`
	Error   string `json:"error"`
}

// convert turns a server's tool list into octet tool definitions. A tool that cannot be
// published is withheld alone, with a diagnostic; only a list longer than one catalog
// holds is refused as a whole.
func (b *Bridge) convert(u *upstream, tools []*mcp.Tool) ([]*octet.ToolDef, map[string]string, []Withheld, error) {
	if len(tools) > protocol.MaxToolsPerRequest {
		return nil, nil, nil, fmt.Errorf("lists %d tools; one catalog revision carries at most %d", len(tools), protocol.MaxToolsPerRequest)
	}
	defs := make([]*octet.ToolDef, 0, len(tools))
	names := make(map[string]string, len(tools))
	var withheld []Withheld
	for i, t := range tools {
		def, name, w := b.convertOne(u, t, names)
		if w != nil {
			w.Error = fmt.Sprintf("tools[%d] %q: %s", i, t.Name, w.Error)
			withheld = append(withheld, *w)
			continue
		}
		defs = append(defs, def)
		names[name] = t.Name
	}
	return defs, names, withheld, nil
}

// convertOne converts one tool, or says why it is withheld; taken holds the octet names
// of the tools before it.
func (b *Bridge) convertOne(u *upstream, t *mcp.Tool, taken map[string]string) (*octet.ToolDef, string, *Withheld) {
	name := ToolName(u.name, t.Name)
	if !octetToolName.MatchString(name) {
		return nil, "", &Withheld{Tool: t.Name, Pointer: "/name", Error: fmt.Sprintf("octet name %q is not a valid tool name (at most 64 of [A-Za-z0-9_-])", name)}
	}
	if prev, dup := taken[name]; dup {
		return nil, "", &Withheld{Tool: t.Name, Pointer: "/name", Error: fmt.Sprintf("octet name %q is also the name of tool %q", name, prev)}
	}
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if n := utf8.RuneCountInString(desc); n > 4096 {
		return nil, "", &Withheld{Tool: t.Name, Pointer: "/description", Error: fmt.Sprintf("description is %d characters; octet allows 4096", n)}
	}
	params, err := schemaObject(t.InputSchema)
	if err != nil {
		return nil, "", &Withheld{Tool: t.Name, Pointer: "/inputSchema", Error: "inputSchema " + err.Error()}
	}
	if params == nil {
		params = map[string]any{"type": "object"}
	}
	params = Normalize(params)
	var output map[string]any
	if t.OutputSchema != nil {
		if output, err = schemaObject(t.OutputSchema); err != nil {
			return nil, "", &Withheld{Tool: t.Name, Pointer: "/outputSchema", Error: "outputSchema " + err.Error()}
		}
		output = Normalize(output)
		// Compiled alone first, so a fault is reported with its pointer in the server's
		// schema rather than inside the wrapper.
		if _, err := octet.DefineRawTool(octet.ToolSpec{Name: name, Description: desc, Parameters: map[string]any{"type": "object"}, OutputSchema: output}, nil); err != nil {
			return nil, "", faultOf(t.Name, "/outputSchema", err)
		}
		output = WithErrorMarker(output)
	}
	if _, err := octet.DefineRawTool(octet.ToolSpec{Name: name, Description: desc, Parameters: params}, nil); err != nil {
		return nil, "", faultOf(t.Name, "/inputSchema", err)
	}
	def, err := octet.DefineRawTool(octet.ToolSpec{Name: name, Description: desc, Parameters: params, OutputSchema: output},
		b.handler(u, name, t.Name, toolInfo{output: output != nil}))
	if err != nil {
		return nil, "", faultOf(t.Name, "", err)
	}
	return def, name, nil
}

// schemaFault finds the pointer in an SDK compile error ("... schema /properties/x/pattern: why").
var schemaFault = regexp.MustCompile(`schema (/[^:]*|):`)

// faultOf is the Withheld of a tool whose schema (at base in the tool definition) did
// not compile.
func faultOf(tool, base string, err error) *Withheld {
	ptr := base
	if m := schemaFault.FindStringSubmatch(err.Error()); m != nil {
		ptr = base + m[1]
	}
	msg := err.Error()
	if base != "" {
		msg = base[1:] + ": " + msg
	}
	return &Withheld{Tool: tool, Pointer: ptr, Error: msg}
}

// ErrorMarker is the structured content of an octet result made from an MCP tool error
// (isError) of a tool with an output schema. MCP applies an output schema to successful
// results only; octet requires structured_content matching output_schema on every
// result, errors included. So the bridge publishes such a tool's output_schema as
// {"anyOf": [MCP outputSchema, ErrorMarkerSchema]} and gives its error results
// {"mcp_error": true}; octet-mcp-gateway recognises the pair and removes both.
const ErrorMarker = "mcp_error"

// ErrorMarkerSchema is the second alternative of a bridged output schema.
func ErrorMarkerSchema() map[string]any {
	return map[string]any{"type": "object", "properties": map[string]any{ErrorMarker: map[string]any{"const": true}},
		"required": []any{ErrorMarker}, "additionalProperties": false}
}

// WithErrorMarker wraps an MCP output schema (see ErrorMarker). A $schema keyword moves
// to the wrapper, where a dialect is declared. The server's schema keeps its own $id, or
// gets OutputResourceID: it stays a schema resource of its own, so every reference in it
// ("#/$defs/X", "#/definitions/X", "#anchor", $dynamicRef) resolves inside it as before.
func WithErrorMarker(s map[string]any) map[string]any {
	inner := make(map[string]any, len(s)+1)
	for k, v := range s {
		inner[k] = v
	}
	if _, has := inner["$id"]; !has {
		inner["$id"] = OutputResourceID
	}
	out := map[string]any{"anyOf": []any{inner, ErrorMarkerSchema()}}
	if d, ok := inner["$schema"]; ok {
		delete(inner, "$schema")
		out["$schema"] = d
	}
	return out
}

// schemaObject is an MCP schema (decoded JSON or a *jsonschema.Schema) as a JSON object.
func schemaObject(v any) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, fmt.Errorf("is not a JSON object: %.60s", raw)
	}
	return m, nil
}

// publish replaces server u's tools with tools: the bridge's whole catalog (its own
// tools and every server's, u's new ones) goes to the host in one tools/replace, one
// revision or nothing, so a changed list never passes through a partial catalog. From then
// on the bridge answers only for the new catalog. Any refusal withdraws u's tools entirely.
func (b *Bridge) publish(ctx context.Context, u *upstream, tools []*mcp.Tool) error {
	defs, names, withheld, err := b.convert(u, tools)
	if err != nil {
		return err
	}
	u.mu.Lock()
	u.withheld = withheld
	u.mu.Unlock()
	for _, w := range withheld {
		b.log.Error("MCP tool withheld", "server", u.name, "tool", w.Tool, "pointer", w.Pointer, "err", w.Error)
	}
	b.pubMu.Lock()
	defer b.pubMu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, catalogTimeout)
	defer cancel()
	up, err := b.ext.Catalog.Replace(cctx, b.catalogWith(u, defs))
	if err != nil {
		return fmt.Errorf("the host refused the catalog: %v", err)
	}
	u.mu.Lock()
	u.tools, u.defs, u.revision = names, defs, up.Revision
	u.mu.Unlock()
	b.log.Info("MCP server catalog published", "server", u.name, "tools", len(names), "revision", b.ext.Catalog.Revision())
	b.statusChanged()
	return nil
}

// catalogWith is the bridge's whole catalog with defs as u's tools: its own tools, then
// each server's in configuration order. Callers hold pubMu.
func (b *Bridge) catalogWith(u *upstream, defs []*octet.ToolDef) []*octet.ToolDef {
	all := append([]*octet.ToolDef{}, b.own...)
	for _, name := range b.order {
		s := b.servers[name]
		if s == u {
			all = append(all, defs...)
			continue
		}
		s.mu.Lock()
		all = append(all, s.defs...)
		s.mu.Unlock()
	}
	return all
}

// withdraw removes every tool of u from the catalog (a crash, a catalog that failed
// validation, shutdown), in one replace. The local view goes first, so calls are refused
// at once.
func (b *Bridge) withdraw(u *upstream, why string) {
	u.mu.Lock()
	old := u.tools
	u.tools, u.defs = nil, nil
	u.mu.Unlock()
	if len(old) == 0 || b.ctx.Err() != nil {
		return
	}
	b.pubMu.Lock()
	defer b.pubMu.Unlock()
	ctx, cancel := context.WithTimeout(b.ctx, catalogTimeout)
	defer cancel()
	if _, err := b.ext.Catalog.Replace(ctx, b.catalogWith(u, nil)); err != nil {
		b.log.Error("withdrawing MCP server tools failed", "server", u.name, "err", err.Error())
		return
	}
	b.log.Warn("MCP server tools withdrawn", "server", u.name, "tools", len(old), "reason", why)
	b.statusChanged()
}
