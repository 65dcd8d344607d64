package vectors_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// fuzzTypes are the messages whose verdict matters most: the handshake both ways (both API
// versions), a tool call and its result, the tool catalog, the envelope and the manifest.
var fuzzTypes = []string{
	"InitializeParams", "InitializeResult", "InitializeParams01", "InitializeResult01",
	"ToolCallParams", "ToolResult", "ToolResult01", "ToolDefinition", "ToolsCatalogResult",
	"ContentPart", "Request", "Notification", "SuccessResponse", "ErrorResponse", "Manifest",
}

// FuzzValidators is differential: on every document the fuzzer makes, the generated Go
// validator of a type gives the same verdict as santhosh-tekuri compiling the real schema,
// and its two modes agree (Valid, the quiet verdict, and Validate, with errors, which must
// name at least one path when it refuses).
func FuzzValidators(f *testing.F) {
	m, _ := load(f)
	sch := oracle(f, m)
	for i, typ := range fuzzTypes {
		for _, verdict := range []string{"valid", "invalid"} {
			files, _ := filepath.Glob(filepath.Join(schemaDir, "vectors", typ, verdict, "*.json"))
			for _, p := range files {
				if raw, err := os.ReadFile(p); err == nil {
					f.Add(uint8(i), raw)
				}
			}
		}
		sch(typ) // compile before fuzzing starts: a worker's first input is not slow
	}
	hostile, _ := filepath.Glob(filepath.Join(schemaDir, "..", "host", "testdata", "hostile", "*"))
	for i, p := range hostile {
		if raw, err := os.ReadFile(p); err == nil {
			f.Add(uint8(i), raw)
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		typ := fuzzTypes[int(sel)%len(fuzzTypes)]
		doc, err := strictjson.Parse(data)
		if err != nil {
			return // refused before validation in every language (FuzzParse covers the decoder)
		}
		oerr := sch(typ).Validate(doc)
		gen := protocol.Valid(typ, doc)
		if gen != (oerr == nil) {
			t.Fatalf("%s: generated validator says valid=%v, the schema oracle %v\ninput: %s", typ, gen, oerr, data)
		}
		verr := protocol.Validate(typ, doc)
		if (verr == nil) != gen {
			t.Fatalf("%s: Valid=%v but Validate returned %v\ninput: %s", typ, gen, verr, data)
		}
		if es, ok := verr.(protocol.ValidationErrors); verr != nil && (!ok || len(es) == 0 || es[0].Path == "") {
			t.Fatalf("%s: refusal names no path: %#v", typ, verr)
		}
	})
}
