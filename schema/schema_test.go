package schema_test

import (
	"strings"
	"testing"

	"github.com/octet-kit/octet/schema"
)

// Every file compiles and is valid against the draft 2020-12 metaschema.
func TestEveryFileCompiles(t *testing.T) {
	for _, f := range schema.Files() {
		if _, err := schema.Compile(f); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestVocabulary(t *testing.T) {
	cases := []struct {
		loc, doc string
		ok       bool
	}{
		{"envelope.schema.json#/$defs/RequestID", `1`, true},
		{"envelope.schema.json#/$defs/RequestID", `1.0`, false},
		{"envelope.schema.json#/$defs/RequestID", `1e0`, false},
		{"envelope.schema.json#/$defs/RequestID", `9007199254740991`, true},
		{"envelope.schema.json#/$defs/RequestID", `9007199254740992`, false},
		{"envelope.schema.json#/$defs/RequestID", `""`, false},
		{"envelope.schema.json#/$defs/RequestID", `"` + strings.Repeat("é", 128) + `"`, true},
		{"envelope.schema.json#/$defs/RequestID", `"` + strings.Repeat("é", 129) + `"`, false},
	}
	for _, c := range cases {
		doc, err := schema.Decode([]byte(c.doc))
		if err != nil {
			t.Fatalf("%s: %v", c.doc, err)
		}
		err = schema.Validate(c.loc, doc)
		if (err == nil) != c.ok {
			t.Errorf("%s against %s: valid=%v, want %v (%v)", c.doc, c.loc, err == nil, c.ok, err)
		}
	}
}
