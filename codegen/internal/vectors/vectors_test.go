package vectors_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/octet-kit/octet/codegen/internal/ir"
	"github.com/octet-kit/octet/codegen/internal/vectors"
	"github.com/octet-kit/octet/schema"
	"github.com/octet-kit/octet/sdk-go/protocol"
	"github.com/octet-kit/octet/sdk-go/protocol/strictjson"
)

const schemaDir = "../../../schema"

type vec struct {
	typ, path string
	valid     bool
	raw       []byte
}

func load(t testing.TB) (*ir.Model, []vec) {
	m, err := ir.Load(os.DirFS(schemaDir))
	if err != nil {
		t.Fatal(err)
	}
	var vs []vec
	dirs, _ := filepath.Glob(filepath.Join(schemaDir, "vectors", "*", "*", "*.json"))
	sort.Strings(dirs)
	for _, p := range dirs {
		parts := strings.Split(filepath.ToSlash(p), "/")
		verdict, typ := parts[len(parts)-2], parts[len(parts)-3]
		if verdict != "valid" && verdict != "invalid" {
			t.Fatalf("%s: the directory above a vector must be valid/ or invalid/", p)
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, vec{typ: typ, path: p, valid: verdict == "valid", raw: raw})
	}
	if len(vs) == 0 {
		t.Fatal("no vectors found")
	}
	return m, vs
}

func oracle(t testing.TB, m *ir.Model) func(typ string) *jsonschema.Schema {
	c, err := schema.NewCompiler(os.DirFS(schemaDir))
	if err != nil {
		t.Fatal(err)
	}
	cache := map[string]*jsonschema.Schema{}
	return func(typ string) *jsonschema.Schema {
		if s, ok := cache[typ]; ok {
			return s
		}
		n := m.Lookup(typ)
		if n == nil {
			t.Fatalf("vectors/%s: no schema type of that name", typ)
		}
		s, err := c.Compile(schema.BaseURL + n.File.Path + "#" + n.Pointer)
		if err != nil {
			t.Fatalf("compile %s: %v", typ, err)
		}
		cache[typ] = s
		return s
	}
}

// Every vector gets its expected verdict from the generic validator (the oracle) and from the
// generated Go validator; a strict-decoding failure counts as invalid for both.
func TestVectorsAgreeWithOracle(t *testing.T) {
	m, vs := load(t)
	sch := oracle(t, m)
	for _, v := range vs {
		doc, perr := strictjson.Parse(v.raw)
		oracleOK, genOK := perr == nil, perr == nil
		var oerr, gerr error
		if perr == nil {
			oerr = sch(v.typ).Validate(doc)
			gerr = protocol.Validate(v.typ, doc)
			oracleOK, genOK = oerr == nil, gerr == nil
		}
		if oracleOK != v.valid {
			t.Errorf("%s: oracle says valid=%v (%v; decode: %v)", v.path, oracleOK, oerr, perr)
		}
		if genOK != v.valid {
			t.Errorf("%s: generated Go validator says valid=%v (%v; decode: %v)", v.path, genOK, gerr, perr)
		}
	}
}

// Every schema type has at least one valid and one invalid vector.
func TestEveryTypeHasVectors(t *testing.T) {
	m, vs := load(t)
	has := map[string][2]bool{}
	for _, v := range vs {
		h := has[v.typ]
		if v.valid {
			h[0] = true
		} else {
			h[1] = true
		}
		has[v.typ] = h
	}
	for _, n := range m.Types {
		if h := has[n.Name]; !h[0] || !h[1] {
			t.Errorf("type %s: valid vector %v, invalid vector %v; want both", n.Name, h[0], h[1])
		}
	}
}

// The synthesized vectors on disk are what the synthesizer produces now (regenerate with
// `go run ./codegen/cmd/octet-vectors`).
func TestSynthesizedVectorsCurrent(t *testing.T) {
	m, _ := load(t)
	vs, err := vectorsSynth(m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, v := range vs {
		p := filepath.Join(schemaDir, "vectors", filepath.FromSlash(v.Path()))
		want[p] = true
		got, err := os.ReadFile(p)
		if err != nil || string(got) != string(v.JSON) {
			t.Errorf("%s is missing or stale; run go run ./codegen/cmd/octet-vectors", p)
		}
	}
	// A synthesized file (told apart by its synth- prefix) the synthesizer no longer makes is
	// stale, not a hand-written case.
	onDisk, _ := filepath.Glob(filepath.Join(schemaDir, "vectors", "*", "*", vectors.SynthPrefix+"*.json"))
	for _, p := range onDisk {
		if !want[p] {
			t.Errorf("%s is a synthesized vector the synthesizer no longer makes; run go run ./codegen/cmd/octet-vectors", p)
		}
	}
}

// BenchmarkValidate compares the generated Go validators with the generic validator on every
// parsed vector; both must reach identical verdicts (checked by the test above).
func BenchmarkValidate(b *testing.B) {
	m, vs := load(b)
	sch := oracle(b, m)
	type doc struct {
		typ string
		v   any
		s   *jsonschema.Schema
	}
	var docs []doc
	for _, v := range vs {
		d, err := strictjson.Parse(v.raw)
		if err == nil {
			docs = append(docs, doc{v.typ, d, sch(v.typ)})
		}
	}
	for _, d := range docs {
		if protocol.Valid(d.typ, d.v) != (d.s.Validate(d.v) == nil) {
			b.Fatalf("%s: verdicts differ", d.typ)
		}
	}
	b.Run("generated-verdict", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, d := range docs {
				_ = protocol.Valid(d.typ, d.v)
			}
		}
	})
	b.Run("generated-errors", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, d := range docs {
				_ = protocol.Validate(d.typ, d.v)
			}
		}
	})
	var valid []doc
	for _, d := range docs {
		if d.s.Validate(d.v) == nil {
			valid = append(valid, d)
		}
	}
	// Valid documents only: the hot path of a healthy connection.
	b.Run("valid-only/generated", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, d := range valid {
				_ = protocol.Validate(d.typ, d.v)
			}
		}
	})
	b.Run("valid-only/generic", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, d := range valid {
				_ = d.s.Validate(d.v)
			}
		}
	})
	b.Run("generic", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, d := range docs {
				_ = d.s.Validate(d.v)
			}
		}
	})
}

// BenchmarkSpeedup alternates whole passes of the two validators over every vector, with a
// forced GC (untimed) before each generated pass so the generic validator's garbage is not
// collected on the generated one's clock; machine load then affects both alike. It reports
// how many times faster the generated validator is.
func BenchmarkSpeedup(b *testing.B) {
	m, vs := load(b)
	sch := oracle(b, m)
	type doc struct {
		typ string
		v   any
		s   *jsonschema.Schema
	}
	var docs []doc
	for _, v := range vs {
		if d, err := strictjson.Parse(v.raw); err == nil {
			docs = append(docs, doc{v.typ, d, sch(v.typ)})
		}
	}
	for _, d := range docs {
		if protocol.Valid(d.typ, d.v) != (d.s.Validate(d.v) == nil) {
			b.Fatalf("%s: verdicts differ", d.typ)
		}
	}
	var verdict, withErrors, generic time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		t0 := time.Now()
		for _, d := range docs {
			_ = protocol.Valid(d.typ, d.v)
		}
		t1 := time.Now()
		for _, d := range docs {
			_ = protocol.Validate(d.typ, d.v)
		}
		t2 := time.Now()
		for _, d := range docs {
			_ = d.s.Validate(d.v)
		}
		t3 := time.Now()
		verdict += t1.Sub(t0)
		withErrors += t2.Sub(t1)
		generic += t3.Sub(t2)
	}
	b.ReportMetric(float64(generic)/float64(verdict), "x-faster-verdict")
	b.ReportMetric(float64(generic)/float64(withErrors), "x-faster-with-errors")
}
