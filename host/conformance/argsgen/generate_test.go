package argsgen_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host"
	"github.com/octet-kit/octet/host/conformance/argsgen"
)

const typedSchema = `{
  "type": "object", "additionalProperties": false, "required": ["count", "mode"],
  "properties": {
    "count": {"type": "integer", "minimum": 1, "maximum": 10},
    "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    "mode": {"type": "string", "enum": ["fast", "slow"]},
    "label": {"type": "string", "minLength": 2, "maxLength": 8},
    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    "nested": {"type": "object", "properties": {"flag": {"type": "boolean"}}, "required": ["flag"], "additionalProperties": false}
  }
}`

func plan(t *testing.T, schema string, seed int64, calls int) *argsgen.Plan {
	t.Helper()
	p, err := argsgen.Generate(json.RawMessage(schema), nil, argsgen.Options{Seed: seed, Calls: calls})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Every case is what it claims: the host's validator accepts each valid one and refuses
// each invalid one at the pointer recorded.
func TestCasesAgreeWithTheOracle(t *testing.T) {
	p := plan(t, typedSchema, 1, 1000)
	if len(p.Valid) < 15 || len(p.Invalid) < 15 {
		t.Fatalf("%d valid, %d invalid cases; want the schema's edges covered", len(p.Valid), len(p.Invalid))
	}
	for _, c := range append(slices.Clone(p.Valid), p.Invalid...) {
		f, err := host.JudgeSchema(json.RawMessage(typedSchema), c.Args)
		if err != nil {
			t.Fatal(err)
		}
		if (f == nil) != c.Valid {
			t.Errorf("%s %s: valid=%t but the oracle says %+v", c.What, c.Args, c.Valid, f)
		}
		if f != nil && f.Pointer != c.Pointer {
			t.Errorf("%s: pointer %q, oracle %q", c.What, c.Pointer, f.Pointer)
		}
	}
}

// The edges the issue names are all generated.
func TestEdgesCovered(t *testing.T) {
	p := plan(t, typedSchema, 1, 1000)
	var valid, invalid []string
	for _, c := range p.Valid {
		valid = append(valid, string(c.Args))
	}
	for _, c := range p.Invalid {
		invalid = append(invalid, c.What)
	}
	all := strings.Join(valid, "\n")
	for _, want := range []string{`"count":10`, `"count":1,`, `"mode":"slow"`, `"mode":"fast"`, `"label":"xxxxxxxx"`, `"label":"xx"`, `"tags":[]`, `"flag":true`, `"ratio":0.5`} {
		if !strings.Contains(all, want) {
			t.Errorf("no valid case with %s:\n%s", want, all)
		}
	}
	if !slices.Contains(valid, `{"count":1,"mode":"fast"}`) {
		t.Errorf("the required-members-only case is missing:\n%s", all)
	}
	bad := strings.Join(invalid, "\n")
	for _, want := range []string{`required member "count" missing`, "an unknown member", "/count: above maximum 10", "/count: below minimum 1",
		"/count: a fraction", "/ratio: exactly exclusiveMinimum 0", "/mode: a value outside the enum", "/label: longer than maxLength 8",
		"/tags: more than maxItems 3", "/nested/flag: string instead of boolean", "/label: null"} {
		if !strings.Contains(bad, want) {
			t.Errorf("no invalid case %q:\n%s", want, bad)
		}
	}
}

func TestDeterministicForASeed(t *testing.T) {
	a, b := plan(t, typedSchema, 7, 8), plan(t, typedSchema, 7, 8)
	if len(a.Valid) != 8 || len(a.Invalid) != 8 {
		t.Fatalf("calls 8 gave %d valid, %d invalid", len(a.Valid), len(a.Invalid))
	}
	for i := range a.Valid {
		if string(a.Valid[i].Args) != string(b.Valid[i].Args) || string(a.Invalid[i].Args) != string(b.Invalid[i].Args) {
			t.Fatalf("case %d differs for the same seed", i)
		}
	}
	c := plan(t, typedSchema, 8, 8)
	same := true
	for i := range a.Valid {
		same = same && string(a.Valid[i].Args) == string(c.Valid[i].Args) && string(a.Invalid[i].Args) == string(c.Invalid[i].Args)
	}
	if same {
		t.Errorf("seeds 7 and 8 chose the same cases")
	}
}

func TestExamplesAlwaysIncludedAndJudged(t *testing.T) {
	p, err := argsgen.Generate(json.RawMessage(typedSchema), []json.RawMessage{
		json.RawMessage(`{"count":3,"mode":"fast","label":"hey"}`), json.RawMessage(`{"count":30,"mode":"fast"}`)}, argsgen.Options{Calls: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Valid) != 2 || !p.Valid[0].Example || string(p.Valid[0].Args) != `{"count":3,"mode":"fast","label":"hey"}` {
		t.Errorf("valid cases %+v: want the good example first, then one generated", p.Valid)
	}
	if len(p.BadExamples) != 1 || p.BadExamples[0].Pointer != "/count" {
		t.Errorf("bad examples %+v: want example 2 refused at /count", p.BadExamples)
	}
}

// A schema with $defs references, type lists and patterns still yields oracle-confirmed cases.
func TestRefsNullablesPatterns(t *testing.T) {
	const s = `{"type":"object","$defs":{"Name":{"type":"string","pattern":"^[a-z]+$"}},
	  "properties":{"name":{"$ref":"#/$defs/Name"},"note":{"type":["string","null"]}},"required":["name"],"additionalProperties":false}`
	p := plan(t, s, 1, 100)
	var valid, invalid []string
	for _, c := range p.Valid {
		valid = append(valid, string(c.Args))
	}
	for _, c := range p.Invalid {
		invalid = append(invalid, c.What)
	}
	if !slices.Contains(valid, `{"name":"a"}`) || !strings.Contains(strings.Join(valid, " "), `"note":null`) {
		t.Errorf("valid cases %v: want the pattern's base and the nullable member null", valid)
	}
	if !strings.Contains(strings.Join(invalid, "\n"), "/name: a string the pattern refuses") {
		t.Errorf("invalid cases %v: want a pattern violation", invalid)
	}
}
