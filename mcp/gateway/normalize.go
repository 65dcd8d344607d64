package gateway

import "encoding/json"

// Keywords of draft 2020-12 whose value is one subschema, an array of them, or an object
// of them ("definitions" too: draft-07 schemas keep their references into it).
// additionalProperties and unevaluatedProperties are left out on purpose: a boolean
// there is the idiom every client reads (some, for strict structured output, require
// the literal false), and no client refuses it.
var (
	oneSchema    = []string{"items", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else", "contentSchema", "additionalItems"}
	schemaArrays = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMaps   = []string{"properties", "patternProperties", "dependentSchemas", "$defs", "definitions"}
)

// normalizeSchema rewrites every boolean subschema (but additionalProperties and
// unevaluatedProperties) of a schema the gateway sends to its
// clients into the object schema of the same meaning (true → {}, false → {"not": {}}):
// strict clients (the TypeScript MCP SDK, MCP Inspector) refuse a whole tools/list that
// holds one. Nothing else changes. raw that is not a JSON object is returned as is.
func normalizeSchema(raw json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return raw
	}
	if !objectify(m) {
		return raw
	}
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// objectify rewrites the boolean subschemas under s in place and reports whether it
// changed anything.
func objectify(s map[string]any) bool {
	changed := false
	fix := func(v any) (any, bool) {
		switch x := v.(type) {
		case bool:
			if x {
				return map[string]any{}, true
			}
			return map[string]any{"not": map[string]any{}}, true
		case map[string]any:
			return x, objectify(x)
		}
		return v, false
	}
	for _, k := range oneSchema {
		if v, ok := s[k]; ok {
			nv, c := fix(v)
			s[k], changed = nv, changed || c
		}
	}
	for _, k := range schemaArrays {
		if arr, ok := s[k].([]any); ok {
			for i, v := range arr {
				nv, c := fix(v)
				arr[i], changed = nv, changed || c
			}
		}
	}
	for _, k := range schemaMaps {
		if m, ok := s[k].(map[string]any); ok {
			for name, v := range m {
				nv, c := fix(v)
				m[name], changed = nv, changed || c
			}
		}
	}
	return changed
}
