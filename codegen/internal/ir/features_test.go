package ir_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// table is a schema file with a Feature enum and the given x-octet-features rows.
func table(enum, rows string) fstest.MapFS {
	return fstest.MapFS{"a.schema.json": &fstest.MapFile{Data: []byte(`{"$id": "https://octet-kit.dev/schema/a.schema.json", "title": "A",
		"$defs": {"Feature": {"type": "string", "enum": [` + enum + `]}},
		"x-octet-features": {"versions": ["1"], "conditions": {"c": "a condition"}, "messages": {}, "features": [` + rows + `]}}`)}}
}

func TestNegotiationTableRefuses(t *testing.T) {
	cases := []struct{ name, enum, rows, want string }{
		{"row missing from the enum", `"a"`, `{"name": "a", "offer": {"1": "required"}, "description": "d"}, {"name": "b", "offer": {}, "sdk": false, "description": "d"}`, "must name exactly the Feature enum"},
		{"conditional without a condition", `"a"`, `{"name": "a", "offer": {"1": "conditional"}, "description": "d"}`, "needs a condition"},
		{"unknown condition", `"a"`, `{"name": "a", "offer": {"1": "conditional"}, "condition": "z", "description": "d"}`, `condition "z" is not in conditions`},
		{"unknown version", `"a"`, `{"name": "a", "offer": {"9": "optional"}, "description": "d"}`, `version "9"`},
		{"bad offer kind", `"a"`, `{"name": "a", "offer": {"1": "sometimes"}, "description": "d"}`, "want required, optional or conditional"},
		{"needs an unknown feature", `"a"`, `{"name": "a", "offer": {"1": "optional"}, "needs": ["z"], "description": "d"}`, `needs "z"`},
		{"offered but not implemented", `"a"`, `{"name": "a", "offer": {"1": "optional"}, "sdk": false, "description": "d"}`, "never offered"},
		{"unknown member", `"a"`, `{"name": "a", "offer": {}, "sdk": false, "description": "d", "colour": "red"}`, "unknown member"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ir.Load(table(c.enum, c.rows))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want %q", err, c.want)
			}
		})
	}
	if _, err := ir.Load(table(`"a"`, `{"name": "a", "offer": {"1": "required"}, "description": "d"}`)); err != nil {
		t.Fatalf("a valid table refused: %v", err)
	}
}
