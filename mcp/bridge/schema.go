package bridge

import (
	"reflect"
	"strings"
)

// Dialect2020 is the JSON Schema dialect octet validates with (draft 2020-12).
const Dialect2020 = "https://json-schema.org/draft/2020-12/schema"

// OutputResourceID is the $id the bridge gives an MCP output schema that has none when
// it wraps it (WithErrorMarker): the schema becomes a resource of its own inside the
// wrapper, so its "#/$defs/X", "#/definitions/X", "#/properties/..." and "#anchor"
// references keep resolving against the server's schema, not against the wrapper.
// octet-mcp-gateway removes it again.
const OutputResourceID = "urn:octet-mcp:output-schema"

// legacyDialect reports whether a $schema names draft-04, -06 or -07, the dialects MCP
// servers send besides 2020-12 (pydantic v1, zod-to-json-schema's default, hand-written
// schemas).
func legacyDialect(s map[string]any) (draft int, ok bool) {
	d, _ := s["$schema"].(string)
	d = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(d, "http://"), "https://"), "#"), "/schema")
	switch d {
	case "json-schema.org/draft-07", "json-schema.org/draft-07/schema":
		return 7, true
	case "json-schema.org/draft-06", "json-schema.org/draft-06/schema":
		return 6, true
	case "json-schema.org/draft-04", "json-schema.org/draft-04/schema":
		return 4, true
	}
	return 0, false
}

// Normalize returns a server schema in the dialect octet validates (2020-12), with the
// same meaning: a draft-04/06/07 schema is translated (definitions → $defs with its
// references, array items → prefixItems, additionalItems → items, dependencies →
// dependentRequired/dependentSchemas, $ref siblings dropped as draft-07 ignores them,
// "#name" ids → $anchor, draft-04's boolean exclusive bounds → numbers); a 2020-12 schema
// (or one naming no dialect, which MCP reads as 2020-12) is returned as is. s is not
// modified. A legacy schema that uses nothing the dialects read differently is returned
// as is too.
func Normalize(s map[string]any) map[string]any {
	draft, ok := legacyDialect(s)
	if !ok {
		return s
	}
	out, _ := translate(s, draft).(map[string]any)
	out["$schema"] = s["$schema"]
	if reflect.DeepEqual(out, s) {
		// Nothing draft-specific in it: the server's schema as it is, which reads the same
		// under 2020-12, so clients behind octet-mcp-gateway get back what it sent.
		return s
	}
	out["$schema"] = Dialect2020
	return out
}

// translate is Normalize of one subschema (any JSON value; non-schemas pass through).
func translate(v any, draft int) any {
	s, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(s))
	ref, hasRef := s["$ref"].(string)
	for k, val := range s {
		if hasRef && draft <= 7 && !refSibling(k) {
			continue // draft-07 and before: every keyword beside $ref is ignored
		}
		switch k {
		case "properties", "patternProperties", "definitions", "$defs":
			m, ok := val.(map[string]any)
			if !ok {
				out[k] = val
				continue
			}
			t := make(map[string]any, len(m))
			for name, sub := range m {
				t[name] = translate(sub, draft)
			}
			if k == "definitions" {
				k = "$defs"
			}
			if prev, ok := out[k].(map[string]any); ok {
				for name, sub := range prev {
					if _, dup := t[name]; !dup {
						t[name] = sub
					}
				}
			}
			out[k] = t
		case "items":
			if arr, ok := val.([]any); ok {
				out["prefixItems"] = translateAll(arr, draft)
				if extra, ok := s["additionalItems"]; ok {
					out["items"] = translate(extra, draft)
				}
				continue
			}
			out[k] = translate(val, draft)
		case "additionalItems":
			// Handled with an array items; beside a single-schema items it is ignored.
		case "dependencies":
			m, ok := val.(map[string]any)
			if !ok {
				continue
			}
			req, sch := map[string]any{}, map[string]any{}
			for name, dep := range m {
				if arr, ok := dep.([]any); ok {
					req[name] = arr
				} else {
					sch[name] = translate(dep, draft)
				}
			}
			if len(req) > 0 {
				out["dependentRequired"] = req
			}
			if len(sch) > 0 {
				out["dependentSchemas"] = sch
			}
		case "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else":
			out[k] = translate(val, draft)
		case "allOf", "anyOf", "oneOf":
			if arr, ok := val.([]any); ok {
				out[k] = translateAll(arr, draft)
			} else {
				out[k] = val
			}
		case "$ref":
			out[k] = rewriteRef(ref)
		case "$id", "id":
			id, ok := val.(string)
			if !ok || (k == "id" && draft != 4) {
				out[k] = val
				continue
			}
			if anchor, frag := strings.CutPrefix(id, "#"); frag {
				out["$anchor"] = anchor
			} else {
				out["$id"] = strings.TrimSuffix(id, "#")
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			if b, isBool := val.(bool); isBool {
				bound := strings.ToLower(k[len("exclusive"):])
				if b {
					if n, ok := s[bound]; ok {
						out[k] = n
					}
				}
				continue
			}
			out[k] = val
		case "minimum", "maximum":
			if excl, ok := s["exclusiveM"+k[1:]].(bool); ok && excl {
				continue // became the exclusive bound
			}
			out[k] = val
		default:
			out[k] = val
		}
	}
	return out
}

// refSibling: the keywords kept beside a draft-07 $ref (the reference itself, and what
// other references or the document's dialect still need).
func refSibling(k string) bool {
	switch k {
	case "$ref", "definitions", "$defs", "$schema", "title", "description":
		return true
	}
	return false
}

func translateAll(arr []any, draft int) []any {
	out := make([]any, len(arr))
	for i, v := range arr {
		out[i] = translate(v, draft)
	}
	return out
}

// rewriteRef points a reference into definitions at $defs, where translate moved them.
func rewriteRef(ref string) string {
	base, frag, ok := strings.Cut(ref, "#")
	if !ok {
		return ref
	}
	if rest, ok := strings.CutPrefix(frag, "/definitions/"); ok {
		return base + "#/$defs/" + rest
	}
	return ref
}
