package manifest

import "testing"

// The schema layer must agree with the hand-written rules on a valid manifest and report
// a bad one with a field path, so both layers are known to be wired.
func TestSchemaLayer(t *testing.T) {
	good := map[string]any{"name": "a", "version": "1.0.0", "api_version": "0.4", "entrypoint": map[string]any{"command": "a"},
		"contributes": map[string]any{"tools": []any{"t1", "t2"}}}
	if d := schemaCheck("f", good); len(d) != 0 {
		t.Fatalf("schema refuses a valid manifest: %v", d)
	}
	bad := map[string]any{"name": "a", "version": "1.0.0", "api_version": "0.4", "entrypoint": map[string]any{"command": "a"},
		"contributes": map[string]any{"tools": []any{"ok", "bad name"}}}
	d := schemaCheck("f", bad)
	if len(d) == 0 || d[0].Rule != RuleSchema || d[0].Field != "contributes.tools[1]" {
		t.Fatalf("schema finding: %v", d)
	}
	merged := mergeSchema([]Diagnostic{{Field: "contributes.tools[1]"}}, d)
	if len(merged) != 1 {
		t.Fatalf("duplicate finding not merged: %v", merged)
	}
}
