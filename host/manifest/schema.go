package manifest

// schemaCheck, when set, validates the parsed manifest against the project's JSON Schema
// (schema/manifest.schema.json). It is optional so the hand-written rules, which give
// field-precise messages, remain the floor when the schema is unavailable.
var schemaCheck func(file string, doc map[string]any) []Diagnostic

// mergeSchema adds schema findings for fields the hand-written rules did not already report,
// so one mistake is not reported twice in different words.
func mergeSchema(diags, schema []Diagnostic) []Diagnostic {
	seen := map[string]bool{}
	for _, d := range diags {
		seen[d.Field] = true
	}
	for _, d := range schema {
		if !seen[d.Field] {
			diags = append(diags, d)
		}
	}
	return diags
}
