package jsonschema

import (
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
)

// The draft 2020-12 meta-schemas, built in so that a $ref to
// https://json-schema.org/draft/2020-12/schema resolves without a network: the
// same documents as sdk-python's metaschema-2020-12.json (one JSON object,
// URI -> document). Parsed only when a schema names one, never at start.

//go:embed metaschema-2020-12.json
var metaschemaJSON []byte

var metaschemas = sync.OnceValue(func() map[string]any {
	var docs map[string]any
	if err := decode(metaschemaJSON, &docs); err != nil {
		panic("jsonschema: the built-in meta-schemas do not parse: " + err.Error())
	}
	return docs
})

func builtinDocument(uri string) (any, bool) {
	if !strings.HasPrefix(uri, "https://json-schema.org/draft/2020-12/") {
		return nil, false
	}
	doc, ok := metaschemas()[uri]
	return doc, ok
}

// decode reads JSON with numbers as json.Number, the representation the
// validator judges.
func decode(raw []byte, into any) error {
	d := json.NewDecoder(strings.NewReader(string(raw)))
	d.UseNumber()
	return d.Decode(into)
}
