package octet

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

// numberVector is one entry of schema/vectors/numbers/*.json: how authors' schemas judge
// numbers (integral 7.0 is an integer, integers beyond 2^53 are exact), in every language
// and in the host. A valid vector may say what a handler receives ("delivered"); an
// invalid one carries the fault contract's fault.
type numberVector struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Instance    json.RawMessage `json:"instance"`
	Valid       bool            `json:"valid"`
	Delivered   json.RawMessage `json:"delivered"`
	Pointer     string          `json:"pointer"`
	Keyword     string          `json:"keyword"`
	Reason      string          `json:"reason"`
	Message     string          `json:"message"`
}

func loadNumberVectors(t testing.TB) []numberVector {
	files, err := filepath.Glob(filepath.Join("..", "schema", "vectors", "numbers", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no number vectors found (%v)", err)
	}
	var all []numberVector
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []numberVector
		if err := json.Unmarshal(raw, &vs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for i := range vs {
			vs[i].Description = filepath.Base(f) + ": " + vs[i].Description
		}
		all = append(all, vs...)
	}
	return all
}

// TestNumberVectors: every vector's instance, parsed as tool arguments are (strictjson)
// and judged as a tool's parameters are, gets the vector's verdict and fault; the oracle
// agrees; and a valid instance reaches a handler as "delivered" (integralArgs).
func TestNumberVectors(t *testing.T) {
	vs := loadNumberVectors(t)
	for _, v := range vs {
		sch, err := compileRaw(v.Schema, "vector schema")
		if err != nil {
			t.Errorf("%s: %v", v.Description, err)
			continue
		}
		inst, err := strictjson.Parse(v.Instance)
		if err != nil {
			t.Fatalf("%s: %v", v.Description, err)
		}
		s := &compiledSchema{schema: func() (*jsonschema.Schema, error) { return sch, nil }}
		err = s.validateDoc(inst)
		if v.Valid {
			if err != nil {
				t.Errorf("%s: want valid, got %v", v.Description, err)
			}
		} else {
			se, ok := err.(*schemaError)
			if !ok {
				t.Errorf("%s: want a fault, got %v", v.Description, err)
				continue
			}
			got := argumentsError(se.fault)
			if se.pointer() != v.Pointer || se.keyword != v.Keyword || se.reason != v.Reason || got.Message != v.Message {
				t.Errorf("%s:\n got  %q %q %q %q\n want %q %q %q %q", v.Description, se.pointer(), se.keyword, se.reason, got.Message,
					v.Pointer, v.Keyword, v.Reason, v.Message)
			}
		}
		old, err := oracleCompile(v.Schema, oracleOptions{})
		if err != nil {
			t.Fatalf("%s: the oracle refuses the schema: %v", v.Description, err)
		}
		oinst, _ := validator.UnmarshalJSON(bytes.NewReader(v.Instance))
		if of, failed := oracleFault(old, oinst); failed == v.Valid || !v.Valid && (of.pointer() != v.Pointer || of.keyword != v.Keyword) {
			t.Errorf("%s: the oracle gives %v %q %q %q", v.Description, !failed, of.pointer(), of.keyword, of.reason)
		}
		if v.Delivered != nil {
			if got, want := compact(t, integralArgs(v.Instance)), compact(t, v.Delivered); got != want {
				t.Errorf("%s: delivered %s, want %s", v.Description, got, want)
			}
		}
	}
	t.Logf("%d number vectors checked", len(vs))
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return b.String()
}

// integralArgs rewrites only integral numbers written with a fraction or exponent, leaves
// strings, fractions and numbers beyond 2^53 as written, and copies nothing otherwise.
func TestIntegralArgs(t *testing.T) {
	for in, want := range map[string]string{
		`{"n":7.0}`:                                 `{"n":7}`,
		`{"n":7e0,"m":-0.0,"k":1E+2}`:               `{"n":7,"m":0,"k":100}`,
		`{"s":"7.0 \"8.0\" \\","x":2.5}`:            `{"s":"7.0 \"8.0\" \\","x":2.5}`,
		`[1.5e1,2.25e1,9007199254740992.0]`:         `[15,2.25e1,9007199254740992]`,
		`{"big":1e300,"beyond":9007199254740994.0}`: `{"big":1e300,"beyond":9007199254740994.0}`,
		`{"n":12}`: `{"n":12}`,
	} {
		if got := string(integralArgs(json.RawMessage(in))); got != want {
			t.Errorf("integralArgs(%s) = %s, want %s", in, got, want)
		}
	}
	plain := json.RawMessage(`{"n":12,"s":"1.0"}`)
	if got := integralArgs(plain); &got[0] != &plain[0] {
		t.Error("arguments without an integral fraction were copied")
	}
}
