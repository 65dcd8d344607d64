package argsgen

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// valid lists values n allows that sit on its edges: each enum value, each bound of a
// number, a length or an item count, 0 and the empty string and array when allowed, null
// when nullable, and for an object its required members alone, every member present,
// and each member's own edges in turn.
func valid(n node, path string, depth int) []variant {
	if n.never || depth > maxDepth {
		return nil
	}
	var out []variant
	add := func(label string, v any) { out = append(out, variant{label: label, value: v, at: path}) }
	if v, ok := n.m["const"]; ok {
		add("the const value", v)
		return out
	}
	if e := n.list("enum"); len(e) > 0 {
		for _, v := range e {
			add(fmt.Sprintf("enum value %s", compact(v)), v)
		}
		return out
	}
	if n.has("null") && n.primary() != "null" {
		add("null (nullable)", nil)
	}
	for i, b := range branches(n) {
		if n.primary() == "" {
			add(fmt.Sprintf("branch %d", i), base(b, depth+1))
		}
	}
	switch n.primary() {
	case "object":
		add("required members only", base(n, depth))
		f := full(n, depth)
		add("every member present", f)
		for _, name := range sortedKeys(n.props()) {
			child := wrap(n.props()[name], n.root)
			p := path + "/" + escapeToken(name)
			for _, v := range valid(child, p, depth+1) {
				out = append(out, variant{label: under(p, v.label), value: withMember(f, name, v.value, false), at: v.at})
			}
		}
	case "array":
		items, _ := n.child("items")
		min, _ := n.count("minItems")
		max, maxOK := n.count("maxItems")
		if min == 0 {
			add("empty array", []any{})
		}
		add(fmt.Sprintf("minItems %d", min), base(n, depth))
		if maxOK && max <= maxArray && max > min {
			add(fmt.Sprintf("maxItems %d", max), fill(base(items, depth+1), max))
		}
		count := max2(min, 1)
		if maxOK && count > max {
			break
		}
		for _, v := range valid(items, path+"/0", depth+1) {
			arr := fill(base(items, depth+1), count)
			arr[0] = v.value
			out = append(out, variant{label: under(path+"/0", v.label), value: arr, at: v.at})
		}
	case "string":
		min, _ := n.count("minLength")
		max, maxOK := n.count("maxLength")
		seed := baseString(n)
		if min == 0 {
			add("empty string", "")
		}
		if min > 0 {
			add(fmt.Sprintf("minLength %d", min), repeatTo(seed, min))
		}
		if maxOK && max <= maxString && max > 0 {
			add(fmt.Sprintf("maxLength %d", max), repeatTo(seed, max))
		}
		if !maxOK {
			add("a long string (1000 code points)", repeatTo(seed, 1000))
		}
		l := max2(min, 2)
		if !maxOK || l <= max {
			add("non-ASCII text", repeatTo("é✓😀", l))
		}
	case "integer", "number":
		integer := n.primary() == "integer"
		lo, hi, loOK, hiOK, loEx, hiEx := bounds(n)
		num := func(label string, f float64) {
			if integer {
				add(label, intNumber(f))
			} else {
				add(label, json.Number(formatFloat(f)))
			}
		}
		switch {
		case loOK && !loEx:
			num(fmt.Sprintf("minimum %v", lo), lo)
		case loOK:
			num(fmt.Sprintf("just above exclusiveMinimum %v", lo), inRange(n, lo, integer))
		default:
			num("a large negative value", -unbounded)
		}
		switch {
		case hiOK && !hiEx:
			num(fmt.Sprintf("maximum %v", hi), hi)
		case hiOK:
			num(fmt.Sprintf("just below exclusiveMaximum %v", hi), inRange(n, hi, integer))
		default:
			num("a large value", unbounded)
		}
		for _, f := range []float64{0, -1, 1} {
			if inRange(n, f, integer) == f {
				num(fmt.Sprintf("%v", f), f)
			}
		}
		if !integer && inRange(n, 0.5, false) == 0.5 {
			num("a fraction", 0.5)
		}
	case "boolean":
		add("true", true)
		add("false", false)
	}
	return out
}

// invalid lists values that break exactly one rule of n, each with the pointer of the
// broken value (the oracle then confirms the rule broken is the one named).
func invalid(n node, path string, depth int) []variant {
	if n.never || n.m == nil || depth > maxDepth {
		return nil
	}
	var out []variant
	add := func(label string, v any, at string) { out = append(out, variant{label: label, value: v, at: at}) }
	if ts := n.types(); len(ts) > 0 {
		for _, w := range []struct {
			typ   string
			value any
		}{{"string", json.Number("7")}, {"integer", "7"}, {"number", "7"}, {"boolean", "true"}, {"object", "not an object"}, {"array", "not an array"}} {
			if n.primary() == w.typ && !n.has(typeOf(w.value)) {
				add(fmt.Sprintf("%s instead of %s", typeOf(w.value), w.typ), w.value, path)
			}
		}
		if !n.has("null") {
			add("null for a value that is not nullable", nil, path)
		}
	}
	if c, ok := n.m["const"]; ok {
		add("not the const value", notEqual(c), path)
		return out
	}
	if e := n.list("enum"); len(e) > 0 {
		if v := notIn(e); v != nil {
			add("a value outside the enum", v, path)
		}
		return out
	}
	switch n.primary() {
	case "object":
		f := full(n, depth)
		for _, r := range n.required() {
			add(fmt.Sprintf("required member %q missing", r), withMember(f, r, nil, true), path)
		}
		if n.closed() {
			add("an unknown member", withMember(f, "conformance_unknown", "x", false), path)
		}
		for _, name := range sortedKeys(n.props()) {
			child := wrap(n.props()[name], n.root)
			p := path + "/" + escapeToken(name)
			for _, v := range invalid(child, p, depth+1) {
				out = append(out, variant{label: under(p, v.label), value: withMember(f, name, v.value, false), at: v.at})
			}
		}
	case "array":
		items, _ := n.child("items")
		min, _ := n.count("minItems")
		max, maxOK := n.count("maxItems")
		b := base(items, depth+1)
		if min > 0 {
			add(fmt.Sprintf("fewer than minItems %d", min), fill(b, min-1), path)
		}
		if maxOK && max < maxArray {
			add(fmt.Sprintf("more than maxItems %d", max), fill(b, max+1), path)
		}
		if u, _ := n.m["uniqueItems"].(bool); u && (!maxOK || max >= 2) {
			add("repeated items (uniqueItems)", fill(b, max2(min, 2)), path)
		}
		count := max2(min, 1)
		if !maxOK || count <= max {
			for _, v := range invalid(items, path+"/0", depth+1) {
				arr := fill(b, count)
				arr[0] = v.value
				out = append(out, variant{label: under(path+"/0", v.label), value: arr, at: v.at})
			}
		}
	case "string":
		min, _ := n.count("minLength")
		max, maxOK := n.count("maxLength")
		seed := baseString(n)
		if min > 0 {
			add(fmt.Sprintf("shorter than minLength %d", min), repeatTo(seed, min-1), path)
		}
		if maxOK && max < maxString {
			add(fmt.Sprintf("longer than maxLength %d", max), repeatTo(seed, max+1), path)
		}
		if _, ok := n.m["pattern"].(string); ok {
			l := max2(min, 1)
			add("a string the pattern refuses", repeatTo("!", l), path)
			add("a string the pattern refuses (with a newline)", seed+"\n", path)
		}
	case "integer", "number":
		integer := n.primary() == "integer"
		lo, hi, loOK, hiOK, loEx, hiEx := bounds(n)
		num := func(f float64) any {
			if integer {
				return intNumber(f)
			}
			return json.Number(formatFloat(f))
		}
		if integer {
			add("a fraction for an integer", json.Number(formatFloat(inRange(n, 0, true)+0.5)), path)
		}
		switch {
		case loOK && loEx:
			add(fmt.Sprintf("exactly exclusiveMinimum %v", lo), num(lo), path)
		case loOK:
			add(fmt.Sprintf("below minimum %v", lo), num(lo-1), path)
		}
		switch {
		case hiOK && hiEx:
			add(fmt.Sprintf("exactly exclusiveMaximum %v", hi), num(hi), path)
		case hiOK:
			add(fmt.Sprintf("above maximum %v", hi), num(hi+1), path)
		}
	}
	return out
}

func fill(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}

func typeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "integer"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	}
	return "object"
}

func notEqual(c any) any {
	if s, ok := c.(string); ok {
		return s + "-not"
	}
	return "not-the-const"
}

// notIn is a value of the enum's own type that the enum does not list.
func notIn(e []any) any {
	switch e[0].(type) {
	case string:
		v := "conformance-not-in-enum"
		for slices.ContainsFunc(e, func(x any) bool { return x == v }) {
			v += "-x"
		}
		return v
	case json.Number:
		best := 0.0
		for _, x := range e {
			if n, ok := x.(json.Number); ok {
				if f, err := n.Float64(); err == nil && f >= best {
					best = f + 1
				}
			}
		}
		return intNumber(best)
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// under labels a member's variant with the member's pointer (once: nested variants
// already carry theirs).
func under(p, label string) string {
	if strings.HasPrefix(label, "/") {
		return label
	}
	return p + ": " + label
}
