package vectors_test

import (
	"os"
	"path/filepath"
	"sort"
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
			for j, p := range files {
				if raw, err := os.ReadFile(p); err == nil {
					f.Add(uint8(i), raw, []byte(nil), uint16(0))
					f.Add(uint8(i), raw, []byte(`"x"`), uint16(1+j%29)) // a member made a string
				}
			}
		}
		sch(typ) // compile before fuzzing starts: a worker's first input is not slow
	}
	hostile, _ := filepath.Glob(filepath.Join(schemaDir, "..", "host", "testdata", "hostile", "*"))
	for i, p := range hostile {
		if raw, err := os.ReadFile(p); err == nil {
			f.Add(uint8(i), raw, []byte(nil), uint16(0))
		}
	}
	f.Fuzz(func(t *testing.T, sel uint8, data, graft []byte, at uint16) {
		typ := fuzzTypes[int(sel)%len(fuzzTypes)]
		doc, err := strictjson.Parse(data)
		if err != nil {
			return // refused before validation in every language (FuzzParse covers the decoder)
		}
		// Byte mutations rarely keep a document valid JSON while changing its structure; a
		// graft puts another JSON value in place of the at'th node (in document order), so
		// the fuzzer also explores well-formed documents of the wrong shape.
		if g, err := strictjson.Parse(graft); err == nil && len(graft) > 0 {
			n := int(at)
			doc = replaceNode(doc, g, &n)
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

// replaceNode returns doc with the *n'th node in document order (the root is 0) replaced by
// g; an index past the last node appends g to the last array met, or replaces nothing.
func replaceNode(doc, g any, n *int) any {
	if *n == 0 {
		*n = -1
		return g
	}
	*n--
	switch x := doc.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if *n < 0 {
				break
			}
			x[k] = replaceNode(x[k], g, n)
		}
	case []any:
		for i := range x {
			if *n < 0 {
				break
			}
			x[i] = replaceNode(x[i], g, n)
		}
		if *n >= 0 && *n < len(x) {
			*n = -1
			return append(x, g) // a repeated or extra item
		}
	}
	return doc
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
