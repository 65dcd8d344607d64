package gateway

import (
	"encoding/json"
	"testing"
)

// TestNormalizeSchema: boolean subschemas become {} and {"not":{}} everywhere a
// subschema may stand but additionalProperties; booleans that are values of other
// keywords stay.
func TestNormalizeSchema(t *testing.T) {
	in := `{"type":"object","properties":{"v":true,"n":false,"d":{"default":true,"const":false}},"additionalProperties":false,` +
		`"prefixItems":[true],"anyOf":[{"items":false}],"$defs":{"x":true},"uniqueItems":true}`
	want := `{"$defs":{"x":{}},"additionalProperties":false,"anyOf":[{"items":{"not":{}}}],"prefixItems":[{}],` +
		`"properties":{"d":{"const":false,"default":true},"n":{"not":{}},"v":{}},"type":"object","uniqueItems":true}`
	if got := string(normalizeSchema(json.RawMessage(in))); got != want {
		t.Errorf("normalizeSchema:\n got %s\nwant %s", got, want)
	}
	// Nothing to rewrite: the bytes are returned unchanged (key order and all).
	same := `{"type":"object","properties":{"b":{"type":"string"},"a":{}}}`
	if got := string(normalizeSchema(json.RawMessage(same))); got != same {
		t.Errorf("changed a schema without booleans: %s", got)
	}
}
