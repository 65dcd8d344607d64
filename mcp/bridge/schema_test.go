package bridge

import (
	"encoding/json"
	"reflect"
	"testing"

	octet "github.com/octet-kit/octet/sdk-go"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func compiles(t *testing.T, what string, output map[string]any) {
	t.Helper()
	if _, err := octet.DefineRawTool(octet.ToolSpec{Name: "t", Parameters: map[string]any{"type": "object"}, OutputSchema: output}, nil); err != nil {
		t.Errorf("%s does not compile: %v", what, err)
	}
}

// TestWithErrorMarkerKeepsReferencesResolvable: an output schema whose references
// point into itself ($defs, definitions, a root pointer, $anchor, $dynamicRef) still
// compiles once wrapped; before, "#/$defs/X" resolved against the wrapper and failed.
func TestWithErrorMarkerKeepsReferencesResolvable(t *testing.T) {
	for what, s := range map[string]string{
		"$defs":          `{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"string"}}}`,
		"definitions":    `{"type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"definitions":{"A":{"type":"string"}}}`,
		"root pointer":   `{"type":"object","properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}}}`,
		"recursive root": `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}}}`,
		"$anchor":        `{"type":"object","properties":{"a":{"$ref":"#name"}},"$defs":{"N":{"$anchor":"name","type":"string"}}}`,
		"$dynamicAnchor": `{"$dynamicAnchor":"node","type":"object","properties":{"kids":{"type":"array","items":{"$dynamicRef":"#node"}}}}`,
		"own $id":        `{"$id":"https://example.com/out","type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"type":"string"}}}`,
		"draft-07":       `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"$ref":"#/definitions/A"}},"definitions":{"A":{"type":"string"}}}`,
	} {
		raw := decode(t, s)
		compiles(t, what, WithErrorMarker(Normalize(raw)))
		if _, err := octet.DefineRawTool(octet.ToolSpec{Name: "t", Parameters: map[string]any{"type": "object"}, OutputSchema: WithErrorMarker(raw)}, nil); err != nil && what != "draft-07" {
			t.Errorf("%s: wrapped without normalising: %v", what, err)
		}
	}
	// The server's own $id stays; only a schema without one gets OutputResourceID.
	w := WithErrorMarker(decode(t, `{"$id":"https://example.com/out","type":"object"}`))
	if id := w["anyOf"].([]any)[0].(map[string]any)["$id"]; id != "https://example.com/out" {
		t.Errorf("own $id replaced: %v", id)
	}
}

// TestNormalizeDraft07: a draft-07 schema becomes the 2020-12 schema of the same meaning.
func TestNormalizeDraft07(t *testing.T) {
	in := decode(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",
		"properties":{
			"tuple":{"type":"array","items":[{"type":"string"},{"type":"integer"}],"additionalItems":false},
			"list":{"type":"array","items":{"$ref":"#/definitions/A"},"additionalItems":false},
			"ref":{"$ref":"#/definitions/A","type":"integer","description":"d"},
			"anchored":{"$ref":"#a"},
			"old":{"type":"number","maximum":5}},
		"dependencies":{"x":["y"],"z":{"required":["w"]}},
		"definitions":{"A":{"$id":"#a","type":"string"}}}`)
	want := decode(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
		"properties":{
			"tuple":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false},
			"list":{"type":"array","items":{"$ref":"#/$defs/A"}},
			"ref":{"$ref":"#/$defs/A","description":"d"},
			"anchored":{"$ref":"#a"},
			"old":{"type":"number","maximum":5}},
		"dependentRequired":{"x":["y"]},"dependentSchemas":{"z":{"required":["w"]}},
		"$defs":{"A":{"$anchor":"a","type":"string"}}}`)
	got := Normalize(in)
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		t.Errorf("Normalize:\n got %s", g)
	}
	compiles(t, "normalised draft-07", got)
	// Draft-04's boolean exclusive bounds become 2020-12's numeric ones.
	d4 := Normalize(decode(t, `{"$schema":"http://json-schema.org/draft-04/schema#","type":"number","minimum":1,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false}`))
	if !reflect.DeepEqual(d4, decode(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"number","exclusiveMinimum":1,"maximum":9}`)) {
		t.Errorf("draft-04 bounds: %v", d4)
	}
	// A 2020-12 schema, or one naming no dialect, is returned untouched.
	for _, s := range []string{`{"type":"array","items":[{"type":"string"}]}`, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"}}}`, `{"$schema":"https://json-schema.org/draft/2020-12/schema","definitions":{}}`} {
		m := decode(t, s)
		if got := Normalize(m); !reflect.DeepEqual(got, decode(t, s)) {
			t.Errorf("Normalize changed %s: %v", s, got)
		}
	}
}
