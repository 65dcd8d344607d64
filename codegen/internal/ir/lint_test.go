package ir_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

func doc(defs string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://octet-kit.dev/schema/a.schema.json", "title": "A", "$defs": {` + defs + `}}`)}
}

const obj = `"type": "object", "additionalProperties": false`

func TestLintRefuses(t *testing.T) {
	cases := []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"no discriminator", fstest.MapFS{"a.schema.json": doc(`
			"X": {"oneOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}]},
			"P": {` + obj + `, "properties": {"a": {"type": "string"}}},
			"Q": {` + obj + `, "properties": {"b": {"type": "string"}}}`)}, "oneOf has no discriminator"},
		{"implicit additionalProperties", fstest.MapFS{"a.schema.json": doc(`"X": {"type": "object", "properties": {}}`)}, "additionalProperties"},
		{"unicode-aware shorthand", fstest.MapFS{"a.schema.json": doc(`"X": {"type": "string", "pattern": "^\\d+$"}`)}, `\d is not portable`},
		{"dot outside class", fstest.MapFS{"a.schema.json": doc(`"X": {"type": "string", "pattern": "^a.b$"}`)}, "'.' outside a class"},
		{"lookahead", fstest.MapFS{"a.schema.json": doc(`"X": {"type": "string", "pattern": "^(?=a)"}`)}, "(? groups"},
		{"non-ASCII pattern", fstest.MapFS{"a.schema.json": doc(`"X": {"type": "string", "pattern": "^é$"}`)}, "non-ASCII"},
		{"unsupported keyword", fstest.MapFS{"a.schema.json": doc(`"X": {"type": "string", "format": "uri"}`)}, `keyword "format"`},
		{"inline union variant", fstest.MapFS{"a.schema.json": doc(`"X": {"oneOf": [{"type": "string"}, {"type": "integer"}]}`)}, "must be a $ref"},
		{"camelCase field", fstest.MapFS{"a.schema.json": doc(`"X": {` + obj + `, "properties": {"callId": {"type": "string"}}}`)}, "snake_case"},
		{"name collision across files", fstest.MapFS{
			"a.schema.json": doc(`"X": {"type": "string"}`),
			"b.schema.json": &fstest.MapFile{Data: []byte(`{"$id": "https://octet-kit.dev/schema/b.schema.json", "$defs": {"X": {"type": "integer"}}}`)},
		}, `type name "X" is already declared`},
		{"names differing in case", fstest.MapFS{"a.schema.json": doc(`"Xy": {"type": "string"}, "XY": {"type": "string"}`)}, "only in case"},
		{"dangling ref", fstest.MapFS{"a.schema.json": doc(`"X": {"$ref": "#/$defs/Nope"}`)}, `no definition "Nope"`},
		{"required not declared", fstest.MapFS{"a.schema.json": doc(`"X": {` + obj + `, "properties": {}, "required": ["a"]}`)}, `"a" is not a declared property`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ir.Load(c.files)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
			if err != nil && !strings.Contains(err.Error(), "schema/") {
				t.Errorf("error does not name the schema file: %v", err)
			}
		})
	}
}

func TestLintAcceptsDiscriminatedUnions(t *testing.T) {
	m, err := ir.Load(fstest.MapFS{"a.schema.json": doc(`
		"X": {"oneOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}]},
		"P": {` + obj + `, "properties": {"kind": {"type": "string", "const": "p"}}, "required": ["kind"]},
		"Q": {` + obj + `, "properties": {"kind": {"type": "string", "const": "q"}}, "required": ["kind"]},
		"Y": {"oneOf": [{"$ref": "#/$defs/R"}, {"$ref": "#/$defs/S"}]},
		"R": {` + obj + `, "properties": {"data": {"type": "string"}}},
		"S": {` + obj + `, "properties": {"path": {"type": "string"}}, "required": ["path"]}`)})
	if err != nil {
		t.Fatal(err)
	}
	if d := m.Lookup("X").Type.Disc; d.Property != "kind" || strings.Join(d.Values, ",") != "p,q" {
		t.Errorf("X: %+v", d)
	}
	if d := m.Lookup("Y").Type.Disc; d.Property != "" || strings.Join(d.Keys, ",") != ",path" {
		t.Errorf("Y: %+v", d)
	}
}

func TestMetaValidateRefusesInvalidSchema(t *testing.T) {
	err := ir.MetaValidate(fstest.MapFS{"a.schema.json": doc(`"X": {"type": "strnig"}`)})
	if err == nil || !strings.Contains(err.Error(), "schema/a.schema.json") {
		t.Errorf("got %v, want a metaschema error naming the file", err)
	}
}
