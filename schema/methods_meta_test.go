package schema

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileMethodsMeta compiles meta/methods.schema.json, the JSON Schema of methods.json.
func compileMethodsMeta(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("meta/methods.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	const url = BaseURL + "meta/methods.schema.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// TestMethodsJSONFollowsItsSchema: the registry as checked in is valid against its schema,
// and each kind of mistake a maintainer could make in a row is refused, naming where.
func TestMethodsJSONFollowsItsSchema(t *testing.T) {
	sch := compileMethodsMeta(t)
	raw, err := files.ReadFile("methods.json")
	if err != nil {
		t.Fatal(err)
	}
	load := func() map[string]any {
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		return doc
	}
	if err := sch.Validate(load()); err != nil {
		t.Fatalf("schema/methods.json: %v", err)
	}
	row := func(doc map[string]any, name string) map[string]any {
		for _, m := range doc["methods"].([]any) {
			if r := m.(map[string]any); r["name"] == name {
				return r
			}
		}
		t.Fatalf("no method %s", name)
		return nil
	}
	cases := []struct {
		name, where string
		mutate      func(doc map[string]any)
	}{
		{"unknown key", "/methods/", func(d map[string]any) { row(d, "kv.get")["retries"] = 3 }},
		{"missing params", "/methods/", func(d map[string]any) { delete(row(d, "kv.get"), "params") }},
		{"direction typo", "/direction", func(d map[string]any) { row(d, "kv.get")["direction"] = "extension_to_hosts" }},
		{"kind typo", "/kind", func(d map[string]any) { row(d, "kv.get")["kind"] = "call" }},
		{"API version 0.3", "/versions/", func(d map[string]any) { row(d, "kv.get")["versions"] = []any{"0.3"} }},
		{"repeated version", "/versions", func(d map[string]any) { row(d, "kv.get")["versions"] = []any{"0.4", "0.4"} }},
		{"version key with spaces", "'0.2, 0.4'", func(d map[string]any) { row(d, "kv.get")["params"] = map[string]any{"0.2, 0.4": "KVGetParams"} }},
		{"type name not a type", "/params/", func(d map[string]any) { row(d, "kv.get")["params"] = map[string]any{"0.4": "kv_get_params"} }},
		{"notification with a result", "/methods/", func(d map[string]any) { row(d, "notification")["result"] = map[string]any{"0.4": "X"} }},
		{"request without a result", "/methods/", func(d map[string]any) { delete(row(d, "kv.get"), "result") }},
		{"error code outside the reserved range", "/errors/", func(d map[string]any) { row(d, "kv.get")["errors"] = []any{-1} }},
		{"unknown dispatch role", "/dispatch", func(d map[string]any) { row(d, "tool/call")["dispatch"] = "background" }},
		{"owner_bound false", "/owner_bound", func(d map[string]any) { row(d, "tool/call")["owner_bound"] = false }},
		{"method name with a space", "/name", func(d map[string]any) { row(d, "kv.get")["name"] = "kv get" }},
		{"empty description", "/description", func(d map[string]any) { row(d, "kv.get")["description"] = "" }},
	}
	for _, tc := range cases {
		doc := load()
		tc.mutate(doc)
		err := sch.Validate(doc)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.where) {
			t.Errorf("%s: the error does not say where (%s): %v", tc.name, tc.where, err)
		}
	}
}
