package reflectschema

// subschemaKeys are the keywords whose value is one schema; an empty one is
// written `true`, as JSON Schema allows and as the SDK has always announced it.
var subschemaKeys = []string{"items", "additionalProperties", "not", "contains"}

// schemaMapKeys are the keywords whose value maps names to schemas.
var schemaMapKeys = []string{"properties", "patternProperties"}

// schemaListKeys are the keywords whose value is a list of schemas.
var schemaListKeys = []string{"oneOf", "anyOf", "allOf"}

// emptyToTrue replaces, below s, every empty subschema by true.
func emptyToTrue(s map[string]any) {
	for _, k := range subschemaKeys {
		if sub, ok := s[k].(map[string]any); ok {
			s[k] = trueIfEmpty(sub)
		}
	}
	for _, k := range schemaMapKeys {
		if m, ok := s[k].(map[string]any); ok {
			for name, v := range m {
				if sub, ok := v.(map[string]any); ok {
					m[name] = trueIfEmpty(sub)
				}
			}
		}
	}
	for _, k := range schemaListKeys {
		if l, ok := s[k].([]any); ok {
			for i, v := range l {
				if sub, ok := v.(map[string]any); ok {
					l[i] = trueIfEmpty(sub)
				}
			}
		}
	}
}

func trueIfEmpty(s map[string]any) any {
	if len(s) == 0 {
		return true
	}
	emptyToTrue(s)
	return s
}
