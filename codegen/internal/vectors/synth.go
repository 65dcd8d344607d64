// Package vectors synthesizes the baseline vectors of schema/vectors: for every named type a
// minimal valid instance and invalid ones that each break exactly one rule. Hand-written
// vectors for the cases that split languages live beside them (schema/vectors/*/...).
package vectors

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Vector is one instance with its expected verdict.
type Vector struct {
	Type  string
	Name  string // says which rule it breaks
	Valid bool
	JSON  []byte
}

// SynthPrefix starts the file name of every synthesized vector, so the path tells it from a
// hand-written one (which never starts so) and a stale one can be found and removed.
const SynthPrefix = "synth-"

// Path is where the vector lives under schema/vectors: <Type>/<valid|invalid>/synth-<Name>.json.
func (v Vector) Path() string {
	verdict := "invalid"
	if v.Valid {
		verdict = "valid"
	}
	return v.Type + "/" + verdict + "/" + SynthPrefix + v.Name + ".json"
}

// patternSamples gives a value matching each schema pattern (the lint keeps patterns few).
var patternSamples = map[string]string{
	"^[a-z][a-z0-9_-]{0,63}$":                      "demo",
	"^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$":               "echo",
	"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$":              "API_TOKEN",
	"^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?$": "1.2.3",
	"^=[0-9]+\\.[0-9]+\\.[0-9]+$":                  "=0.8.0",
	"[^ \\t\\n\\r]":                                "Your name?",
	"^[A-Za-z0-9+/]*={0,2}$":                       "aGVsbG8=",
	"^[0-9a-f]{64}$":                               strings.Repeat("ab", 32),
	"^[A-Za-z0-9_.:-]{1,64}$":                      "job-1",
	"^https?://[^/@ ]+":                            "https://example.com/x",
	"^[a-z0-9_-]{1,48}$":                           "review",
	"^([A-Za-z0-9.-]{1,253}|\\*|\\[[0-9A-Fa-f:.]{2,45}\\]):[0-9]{1,5}$": "api.example.com:443",
	"^[a-z*][a-z0-9_*-]{0,63}/[a-zA-Z_*][a-zA-Z0-9_*-]{0,63}$":          "demo/*",
}

type synth struct{ m *ir.Model }

// Synthesize returns the baseline vectors of every named type.
func Synthesize(m *ir.Model) ([]Vector, error) {
	s := &synth{m: m}
	var out []Vector
	for _, n := range m.Types {
		v, err := s.valid(n.Type)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n.Name, err)
		}
		add := func(name string, valid bool, val any) {
			b, _ := json.MarshalIndent(val, "", "  ")
			out = append(out, Vector{Type: n.Name, Name: name, Valid: valid, JSON: append(b, '\n')})
		}
		add("minimal", true, v)
		t := m.Resolve(n.Type)
		if len(t.OneOf) > 0 {
			t = m.Resolve(t.OneOf[0])
			v, _ = s.valid(t)
		}
		if obj, ok := v.(map[string]any); ok && t.Has(ir.Object) && !t.Open {
			add("unknown-field", false, with(obj, "x_unknown", true))
			add("wrong-type-object-is-array", false, []any{})
			for _, f := range t.Fields {
				if f.Required {
					add("missing-"+f.Name, false, without(obj, f.Name))
					if bad, ok := s.wrongType(f.Type); ok {
						add("wrong-type-"+f.Name, false, with(obj, f.Name, bad))
					}
				}
			}
			if full, err := s.full(t); err == nil {
				add("all-fields", true, full)
				fo := full.(map[string]any)
				for _, f := range t.Fields {
					for _, b := range s.breaks(f.Type) {
						add(b.rule+"-"+f.Name, false, with(fo, f.Name, b.value))
					}
				}
			}
		} else if bad, ok := s.wrongType(n.Type); ok {
			add("wrong-type", false, bad)
		}
	}
	return out, nil
}

func with(o map[string]any, k string, v any) map[string]any {
	c := map[string]any{}
	for kk, vv := range o {
		c[kk] = vv
	}
	c[k] = v
	return c
}

func without(o map[string]any, k string) map[string]any {
	c := map[string]any{}
	for kk, vv := range o {
		if kk != k {
			c[kk] = vv
		}
	}
	return c
}

type broken struct {
	rule  string
	value any
}

// maxSynth keeps synthesized files small: longer limits are covered by hand-written vectors.
const maxSynth = 20000

// breaks returns values that break exactly one constraint of t each (limits, pattern, enum,
// const), for the "over a limit / bad pattern / wrong value" invalid vectors.
func (s *synth) breaks(t *ir.Type) []broken {
	rt := s.m.Resolve(t)
	var out []broken
	if len(rt.OneOf) > 0 || len(rt.Kinds) > 1 && !rt.Nullable() {
		return nil
	}
	k := rt.NonNull()
	if c, ok := rt.Const.(string); ok {
		out = append(out, broken{"wrong-const", c + "-not"})
	}
	if len(rt.Enum) > 0 {
		out = append(out, broken{"not-in-enum", "not-a-member"})
	}
	if k == ir.String && rt.Pattern != "" && len(rt.Enum) == 0 {
		re := regexp.MustCompile(rt.Pattern)
		for _, cand := range []string{" ", "!", "", "\n"} {
			if !re.MatchString(cand) && !tooShort(rt, cand) {
				out = append(out, broken{"bad-pattern", cand})
				break
			}
		}
	}
	if k == ir.String {
		if rt.MaxLength != nil && *rt.MaxLength < maxSynth {
			out = append(out, broken{"over-maxLength", strings.Repeat("a", int(*rt.MaxLength)+1)})
		}
		if rt.MaxBytes != nil && *rt.MaxBytes < maxSynth && rt.Pattern == "" {
			out = append(out, broken{"over-maxBytes", strings.Repeat("a", int(*rt.MaxBytes)+1)})
		}
		if (rt.MinLength != nil && *rt.MinLength > 0 || rt.MinBytes != nil && *rt.MinBytes > 0) && rt.Pattern == "" {
			out = append(out, broken{"under-minimum-length", ""})
		}
	}
	if k == ir.Integer || k == ir.Number {
		if rt.Maximum != nil {
			out = append(out, broken{"over-maximum", json.Number(fmt.Sprint(int64(*rt.Maximum) + 1))})
		}
		if rt.Minimum != nil {
			out = append(out, broken{"under-minimum", json.Number(fmt.Sprint(int64(*rt.Minimum) - 1))})
		}
		if k == ir.Integer {
			out = append(out, broken{"fraction-for-integer", json.Number("1.5")})
		}
	}
	if k == ir.Array {
		item, err := s.valid(rt.Items)
		if err == nil && rt.MaxItems != nil && *rt.MaxItems < 300 {
			arr := make([]any, *rt.MaxItems+1)
			for i := range arr {
				arr[i] = item
			}
			if !rt.Unique {
				out = append(out, broken{"over-maxItems", arr})
			}
		}
		if rt.MinItems != nil && *rt.MinItems > 0 {
			out = append(out, broken{"under-minItems", []any{}})
		}
		if err == nil && rt.Unique {
			out = append(out, broken{"duplicate-items", []any{item, item}})
		}
	}
	return out
}

func tooShort(t *ir.Type, s string) bool {
	return t.MinLength != nil && int64(len(s)) < *t.MinLength
}

// wrongType returns a value of a kind the type refuses.
func (s *synth) wrongType(t *ir.Type) (any, bool) {
	rt := s.m.Resolve(t)
	if len(rt.OneOf) > 0 {
		return "not-an-object", true
	}
	if len(rt.Kinds) == 0 && rt.Const == nil {
		return nil, false // any
	}
	for _, cand := range []any{true, "text", json.Number("1"), []any{}, map[string]any{}} {
		if !acceptsKind(rt, cand) {
			return cand, true
		}
	}
	return nil, false
}

func acceptsKind(t *ir.Type, v any) bool {
	k := map[string]ir.Kind{"bool": ir.Boolean, "string": ir.String, "json.Number": ir.Integer, "[]interface {}": ir.Array, "map[string]interface {}": ir.Object}[fmt.Sprintf("%T", v)]
	if len(t.Kinds) == 0 {
		switch t.Const.(type) {
		case string:
			return k == ir.String
		case bool:
			return k == ir.Boolean
		case int64:
			return k == ir.Integer
		}
	}
	return t.Has(k) || (k == ir.Integer && t.Has(ir.Number))
}

func (s *synth) valid(t *ir.Type) (any, error) { return s.value(t, false) }
func (s *synth) full(t *ir.Type) (any, error)  { return s.value(t, true) }

func (s *synth) value(t *ir.Type, all bool) (any, error) {
	if t.Ref != "" {
		return s.value(s.m.Resolve(t), all)
	}
	if len(t.OneOf) > 0 {
		return s.value(t.OneOf[0], all)
	}
	if t.Const != nil {
		if i, ok := t.Const.(int64); ok {
			return json.Number(fmt.Sprint(i)), nil
		}
		return t.Const, nil
	}
	if len(t.Enum) > 0 {
		return t.Enum[0], nil
	}
	if len(t.Kinds) == 0 {
		return map[string]any{"any": "value"}, nil
	}
	switch t.Kinds[0] {
	case ir.String:
		if t.Pattern != "" {
			v, ok := patternSamples[t.Pattern]
			if !ok {
				return nil, fmt.Errorf("no sample for pattern %q; add one to patternSamples", t.Pattern)
			}
			return v, nil
		}
		return "x", nil
	case ir.Integer, ir.Number:
		n := int64(1)
		if t.Minimum != nil {
			n = int64(*t.Minimum)
		}
		return json.Number(fmt.Sprint(n)), nil
	case ir.Boolean:
		return false, nil
	case ir.Null:
		return nil, nil
	case ir.Array:
		n := 0
		if t.MinItems != nil {
			n = int(*t.MinItems)
		}
		if all && n == 0 {
			n = 1
		}
		arr := []any{}
		for i := 0; i < n; i++ {
			v, err := s.value(t.Items, all)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		return arr, nil
	case ir.Object:
		o := map[string]any{}
		for _, f := range t.Fields {
			if f.Required || all {
				v, err := s.value(f.Type, all)
				if err != nil {
					return nil, err
				}
				o[f.Name] = v
			}
		}
		return o, nil
	}
	return nil, fmt.Errorf("cannot synthesize %v", t.Kinds)
}

// Sorted orders vectors by type then name.
func Sorted(v []Vector) []Vector {
	sort.SliceStable(v, func(i, j int) bool {
		if v[i].Type != v[j].Type {
			return v[i].Type < v[j].Type
		}
		return v[i].Name < v[j].Name
	})
	return v
}
