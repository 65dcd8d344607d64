package argsgen

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
)

// Bounds on what is generated, so a schema without bounds does not make frames huge.
const (
	maxString = 4096 // longest boundary string
	maxArray  = 64   // most items in a boundary array
	maxDepth  = 6    // nesting followed when varying members
	// unbounded stands in for "a large value" where the schema sets no bound.
	unbounded = 1_000_000
)

// variant is one generated value at a node: what it shows and, for an invalid one, the
// instance pointer of the one rule it breaks.
type variant struct {
	label string
	value any
	at    string
}

func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// base is a small valid value for n: required members only, bounds respected.
func base(n node, depth int) any {
	if n.never {
		return nil
	}
	if v, ok := n.m["const"]; ok {
		return v
	}
	if e := n.list("enum"); len(e) > 0 {
		return e[0]
	}
	if def, ok := n.m["default"]; ok {
		return def
	}
	if br := branches(n); len(br) > 0 && n.primary() == "" {
		return base(br[0], depth+1)
	}
	switch n.primary() {
	case "object":
		out := map[string]any{}
		if depth > maxDepth {
			return out
		}
		for _, r := range n.required() {
			c := wrap(n.props()[r], n.root)
			out[r] = base(c, depth+1)
		}
		return out
	case "array":
		min, _ := n.count("minItems")
		out := []any{}
		items, _ := n.child("items")
		for range min {
			out = append(out, base(items, depth+1))
		}
		return out
	case "string":
		return baseString(n)
	case "integer":
		return intNumber(inRange(n, 0, true))
	case "number":
		return json.Number(formatFloat(inRange(n, 0, false)))
	case "boolean":
		return false
	case "null":
		return nil
	}
	return "conformance"
}

// full is the base with every declared member present.
func full(n node, depth int) any {
	if n.primary() != "object" || depth > maxDepth {
		return base(n, depth)
	}
	out, _ := base(n, depth).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	for name, p := range n.props() {
		if _, ok := out[name]; !ok {
			out[name] = base(wrap(p, n.root), depth+1)
		}
	}
	return out
}

func branches(n node) []node {
	var out []node
	for _, k := range []string{"oneOf", "anyOf"} {
		for _, b := range n.list(k) {
			out = append(out, wrap(b, n.root))
		}
	}
	return out
}

// bounds returns the numeric range; exclusive bounds are reported as such.
func bounds(n node) (lo, hi float64, loOK, hiOK, loEx, hiEx bool) {
	lo, loOK = n.num("minimum")
	hi, hiOK = n.num("maximum")
	if x, ok := n.num("exclusiveMinimum"); ok && (!loOK || x >= lo) {
		lo, loOK, loEx = x, true, true
	}
	if x, ok := n.num("exclusiveMaximum"); ok && (!hiOK || x <= hi) {
		hi, hiOK, hiEx = x, true, true
	}
	return
}

// inRange moves want into n's range (the nearest allowed value), on a multipleOf step.
func inRange(n node, want float64, integer bool) float64 {
	lo, hi, loOK, hiOK, loEx, hiEx := bounds(n)
	step := 1.0
	if !integer {
		step = 0.5
	}
	if loOK && (want < lo || loEx && want <= lo) {
		want = lo
		if loEx {
			want = lo + step
		}
		if integer {
			want = math.Ceil(want)
		}
	}
	if hiOK && (want > hi || hiEx && want >= hi) {
		want = hi
		if hiEx {
			want = hi - step
		}
		if integer {
			want = math.Floor(want)
		}
	}
	if m, ok := n.num("multipleOf"); ok && m > 0 {
		want = math.Ceil(want/m) * m
	}
	return want
}

func formatFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// patternCandidates are strings tried, in order, for a pattern no other value matches.
var patternCandidates = []string{"a", "abc", "x1", "A", "0", "1", "a_b", "a-b", "1.0.0", "2026-01-01", "12:00:00",
	"test@example.com", "https://example.com", "/tmp/x", "main", "a.b", "ab12", "AB", "aaaaaaaa", ""}

func baseString(n node) string {
	min, _ := n.count("minLength")
	max, maxOK := n.count("maxLength")
	want := max2(min, 1)
	if maxOK && want > max {
		want = max
	}
	if p, ok := n.m["pattern"].(string); ok {
		if re, err := regexp.Compile(p); err == nil {
			for _, c := range patternCandidates {
				l := len([]rune(c))
				if re.MatchString(c) && l >= min && (!maxOK || l <= max) {
					return c
				}
			}
		}
	}
	return strings.Repeat("x", want)
}

func max2(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// withMember returns a copy of obj with name set to v (or removed when remove).
func withMember(obj any, name string, v any, remove bool) map[string]any {
	src, _ := obj.(map[string]any)
	out := make(map[string]any, len(src)+1)
	for k, x := range src {
		out[k] = x
	}
	if remove {
		delete(out, name)
	} else {
		out[name] = v
	}
	return out
}

// repeatTo builds a string of n code points from base's characters.
func repeatTo(seed string, n int) string {
	if n <= 0 {
		return ""
	}
	r := []rune(seed)
	if len(r) == 0 {
		r = []rune("x")
	}
	out := make([]rune, n)
	for i := range out {
		out[i] = r[i%len(r)]
	}
	return string(out)
}
