package octet

import (
	"bytes"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
)

// A typical tool schema (the one sdk-python/bench/validate.py measures), valid
// and invalid arguments: the invalid path includes choosing the reported fault.
const benchToolSchema = `{"type":"object","properties":{
 "query":{"type":"string","minLength":1,"maxLength":200},
 "limit":{"type":"integer","minimum":1,"maximum":100},
 "tags":{"type":"array","items":{"type":"string","pattern":"^[a-z0-9-]+$"},"maxItems":10},
 "mode":{"enum":["fast","exact"]},"since":{"type":"string"}},
 "required":["query"],"additionalProperties":false}`

func benchValidate(b *testing.B, instance string, wantErr bool) {
	sch, err := compileRaw([]byte(benchToolSchema), "bench")
	if err != nil {
		b.Fatal(err)
	}
	s := &compiledSchema{schema: func() (*validator.Schema, error) { return sch, nil }}
	inst, err := validator.UnmarshalJSON(bytes.NewReader([]byte(instance)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.validateDoc(inst); (err != nil) != wantErr {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateArgumentsValid(b *testing.B) {
	benchValidate(b, `{"query":"weather in Paris","limit":10,"tags":["news","eu-west"],"mode":"fast"}`, false)
}

func BenchmarkValidateArgumentsInvalid(b *testing.B) {
	benchValidate(b, `{"query":"weather in Paris","limit":0,"tags":["news","EU"],"mode":"fast"}`, true)
}

// BenchmarkCompileToolSchema: compiling the typical tool schema (what defining a
// tool with an explicit schema costs).
func BenchmarkCompileToolSchema(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compileRaw([]byte(benchToolSchema), "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
