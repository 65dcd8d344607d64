package octet

import (
	"testing"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
)

// A typical tool schema (the one sdk-python/bench/validate.py measures), valid
// and invalid arguments: the invalid path includes choosing the reported fault.
// Each benchmark runs the SDK's validator (new) and the oracle it replaced
// (old, santhosh-tekuri with the fault flattening) on the same instance.
const benchToolSchema = `{"type":"object","properties":{
 "query":{"type":"string","minLength":1,"maxLength":200},
 "limit":{"type":"integer","minimum":1,"maximum":100},
 "tags":{"type":"array","items":{"type":"string","pattern":"^[a-z0-9-]+$"},"maxItems":10},
 "mode":{"enum":["fast","exact"]},"since":{"type":"string"}},
 "required":["query"],"additionalProperties":false}`

const (
	benchValidArgs   = `{"query":"weather in Paris","limit":10,"tags":["news","eu-west"],"mode":"fast"}`
	benchInvalidArgs = `{"query":"weather in Paris","limit":0,"tags":["news","EU"],"mode":"fast"}`
)

func benchValidate(b *testing.B, instance string, wantErr bool) {
	b.Run("new", func(b *testing.B) {
		sch, err := compileRaw([]byte(benchToolSchema), "bench")
		if err != nil {
			b.Fatal(err)
		}
		s := &compiledSchema{schema: func() (*jsonschema.Schema, error) { return sch, nil }}
		inst := parseJSON(b, []byte(instance))
		b.ReportAllocs()
		for b.Loop() {
			if err := s.validateDoc(inst); (err != nil) != wantErr {
				b.Fatal(err)
			}
		}
	})
	b.Run("old", func(b *testing.B) {
		sch, err := oracleCompile([]byte(benchToolSchema), oracleOptions{})
		if err != nil {
			b.Fatal(err)
		}
		inst := parseJSON(b, []byte(instance))
		b.ReportAllocs()
		for b.Loop() {
			if _, failed := oracleFault(sch, inst); failed != wantErr {
				b.Fatal(failed)
			}
		}
	})
}

func BenchmarkValidateArgumentsValid(b *testing.B) { benchValidate(b, benchValidArgs, false) }

func BenchmarkValidateArgumentsInvalid(b *testing.B) { benchValidate(b, benchInvalidArgs, true) }

// BenchmarkCompileToolSchema: compiling the typical tool schema (what defining a
// tool with an explicit schema costs), new and old.
func BenchmarkCompileToolSchema(b *testing.B) {
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := compileRaw([]byte(benchToolSchema), "bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("old", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := oracleCompile([]byte(benchToolSchema), oracleOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestValidArgumentsAllocateNothing: the boolean fast path on valid arguments
// allocates no fault (nor anything else) once the schema is compiled.
func TestValidArgumentsAllocateNothing(t *testing.T) {
	sch, err := compileRaw([]byte(benchToolSchema), "bench")
	if err != nil {
		t.Fatal(err)
	}
	s := &compiledSchema{schema: func() (*jsonschema.Schema, error) { return sch, nil }}
	inst := parseJSON(t, []byte(benchValidArgs))
	if n := testing.AllocsPerRun(100, func() {
		if err := s.validateDoc(inst); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("validating valid arguments allocates %v times, want 0", n)
	}
}
