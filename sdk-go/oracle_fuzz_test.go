package octet

import (
	"bytes"
	"math"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
)

// FuzzValidatorMatchesOracle: instances mutated from the fault vectors' (and
// the benchmark's), judged against the same schemas by the SDK's validator and
// the oracle, as tool arguments are (the octet integer rule): the same verdict,
// and for an invalid instance the same reported fault. The seeds run in every
// go test; go test -fuzz explores further.
func FuzzValidatorMatchesOracle(f *testing.F) {
	type pair struct {
		old       *validator.Schema
		new       *jsonschema.Schema
		misjudged bool // the oracle's string/number bug applies (oracleMisjudgesStrings)
	}
	var schemas []pair
	add := func(raw []byte) int {
		old, err := oracleCompile(raw, oracleOptions{})
		if err != nil {
			f.Fatal(err)
		}
		s, err := compileRaw(raw, "schema")
		if err != nil {
			f.Fatal(err)
		}
		doc, err := validator.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			f.Fatal(err)
		}
		schemas = append(schemas, pair{old, s, oracleMisjudgesStrings(doc)})
		return len(schemas) - 1
	}
	f.Add(add([]byte(benchToolSchema)), []byte(benchValidArgs))
	f.Add(0, []byte(benchInvalidArgs))
	for _, vs := range loadFaultVectors(f) {
		for _, v := range vs {
			f.Add(add(v.Schema), []byte(v.Instance))
		}
	}
	f.Fuzz(func(t *testing.T, which int, instance []byte) {
		if which < 0 {
			which = -which
		}
		p := schemas[which%len(schemas)]
		inst, err := validator.UnmarshalJSON(bytes.NewReader(instance))
		if err != nil || p.misjudged || !float64Exact(inst) || oracleMisjudgesStrings(inst) {
			return
		}
		want, wantFault := oracleFault(p.old, inst)
		got, gotFault := p.new.Check(inst)
		if gotFault != wantFault {
			t.Fatalf("%s: fault %v (%+v), the oracle's %v (%+v)", instance, gotFault, got, wantFault, want)
		}
		if wantFault && (got.Pointer() != want.pointer() || got.Keyword != want.keyword || got.Reason != want.reason) {
			t.Fatalf("%s:\n got    %q %q %q\n oracle %q %q %q", instance, got.Pointer(), got.Keyword, got.Reason, want.pointer(), want.keyword, want.reason)
		}
	})
}

// float64Exact: every number of v is exactly a float64 (the oracle compares
// numbers as exact rationals, the three SDKs as float64, like JSON.parse; the
// two differ only beyond float64's precision, where the wire's integers, at
// most 2^53-1, never go).
func float64Exact(v any) bool {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			if !float64Exact(x) {
				return false
			}
		}
	case map[string]any:
		for _, x := range v {
			if !float64Exact(x) {
				return false
			}
		}
	case interface{ Float64() (float64, error) }:
		f, err := v.Float64()
		if err != nil || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
			return false
		}
		i, err := v.(interface{ Int64() (int64, error) }).Int64()
		return err != nil || float64(i) == f
	}
	return true
}
