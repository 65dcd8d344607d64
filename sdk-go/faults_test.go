package octet

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
)

// faultVector is one entry of schema/vectors/faults/*.json (the corpus every
// language checks; format in docs/conformance.md#validation-faults).
type faultVector struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Instance    json.RawMessage `json:"instance"`
	Pointer     string          `json:"pointer"`
	Keyword     string          `json:"keyword"`
	Reason      string          `json:"reason"`
	Message     string          `json:"message"`
}

func loadFaultVectors(t testing.TB) map[string][]faultVector {
	files, err := filepath.Glob(filepath.Join("..", "schema", "vectors", "faults", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fault vectors found (%v)", err)
	}
	out := map[string][]faultVector{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []faultVector
		if err := json.Unmarshal(raw, &vs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[filepath.Base(f)] = vs
	}
	return out
}

// TestFaultVectors: every vector's instance, judged against its schema as a
// tool's parameters are (compileRaw, validateDoc), gives exactly the expected
// pointer, keyword, reason and -32602 error object, and the oracle gives the
// same fault.
func TestFaultVectors(t *testing.T) {
	n := 0
	for file, vs := range loadFaultVectors(t) {
		for _, v := range vs {
			n++
			name := file + ": " + v.Description
			sch, err := compileRaw(v.Schema, "vector schema")
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			inst, err := validator.UnmarshalJSON(bytes.NewReader(v.Instance))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			s := &compiledSchema{schema: func() (*jsonschema.Schema, error) { return sch, nil }}
			err = s.validateDoc(inst)
			se, ok := err.(*schemaError)
			if !ok {
				t.Errorf("%s: want a fault, got %v", name, err)
				continue
			}
			got := argumentsError(se.fault)
			var data map[string]string
			if err := json.Unmarshal(got.Data, &data); err != nil {
				t.Fatal(err)
			}
			want := map[string]string{"keyword": v.Keyword, "path": "/arguments" + v.Pointer, "pointer": v.Pointer, "reason": v.Reason}
			if got.Message != v.Message || len(data) != len(want) || data["keyword"] != want["keyword"] ||
				data["path"] != want["path"] || data["pointer"] != want["pointer"] || data["reason"] != want["reason"] {
				t.Errorf("%s:\n got  %q %v\n want %q %v", name, got.Message, data, v.Message, want)
			}
			old, err := oracleCompile(v.Schema, oracleOptions{})
			if err != nil {
				t.Fatalf("%s: the oracle refuses the schema: %v", name, err)
			}
			if oracleMisjudgesStrings(inst, parseJSON(t, v.Schema)) {
				continue
			}
			if of, failed := oracleFault(old, inst); !failed || of.pointer() != se.pointer() || of.keyword != se.keyword || of.reason != se.reason {
				t.Errorf("%s: the oracle gives %v %q %q %q", name, failed, of.pointer(), of.keyword, of.reason)
			}
		}
	}
	t.Logf("%d fault vectors checked", n)
}
