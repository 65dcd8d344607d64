package argsgen

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// node is one subschema as decoded JSON (numbers kept as json.Number), with the root it
// belongs to so local references resolve.
type node struct {
	m    map[string]any // nil: the schema true/false or not an object
	root map[string]any
	// bool schema: false rejects everything (nothing valid can be generated below it).
	never bool
}

func wrap(v any, root map[string]any) node {
	switch s := v.(type) {
	case map[string]any:
		return node{m: s, root: root}.resolve(0)
	case bool:
		return node{root: root, never: !s}
	}
	return node{root: root}
}

// resolve follows a local $ref ("#/$defs/X", "#/definitions/X", any pointer into the root);
// a reference it cannot follow leaves the node as it is (the oracle judges what comes out).
func (n node) resolve(depth int) node {
	ref, ok := n.m["$ref"].(string)
	if !ok || depth > 16 || !strings.HasPrefix(ref, "#") {
		return n
	}
	var cur any = n.root
	for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return n
		}
		cur = m[tok]
	}
	target, ok := cur.(map[string]any)
	if !ok {
		return n
	}
	// Siblings of $ref (2020-12 allows them) are kept over the target's keywords.
	merged := map[string]any{}
	for k, v := range target {
		merged[k] = v
	}
	for k, v := range n.m {
		if k != "$ref" {
			merged[k] = v
		}
	}
	return node{m: merged, root: n.root}.resolve(depth + 1)
}

// types lists the declared types; none declared is inferred from the keywords.
func (n node) types() []string {
	switch t := n.m["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	switch {
	case n.m["properties"] != nil || n.m["required"] != nil || n.m["additionalProperties"] != nil:
		return []string{"object"}
	case n.m["items"] != nil || n.m["minItems"] != nil || n.m["maxItems"] != nil:
		return []string{"array"}
	case n.m["minLength"] != nil || n.m["maxLength"] != nil || n.m["pattern"] != nil:
		return []string{"string"}
	case n.m["minimum"] != nil || n.m["maximum"] != nil || n.m["exclusiveMinimum"] != nil || n.m["exclusiveMaximum"] != nil:
		return []string{"number"}
	}
	return nil
}

func (n node) has(t string) bool {
	for _, x := range n.types() {
		if x == t || t == "number" && x == "integer" {
			return true
		}
	}
	return false
}

// primary is the type values are generated for: the first declared one that is not null.
func (n node) primary() string {
	ts := n.types()
	for _, t := range ts {
		if t != "null" {
			return t
		}
	}
	if len(ts) > 0 {
		return "null"
	}
	return ""
}

func (n node) num(key string) (float64, bool) {
	switch v := n.m[key].(type) {
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	case float64:
		return v, true
	}
	return 0, false
}

func (n node) count(key string) (int, bool) {
	f, ok := n.num(key)
	if !ok || f < 0 || f > math.MaxInt32 {
		return 0, false
	}
	return int(f), true
}

func (n node) list(key string) []any {
	l, _ := n.m[key].([]any)
	return l
}

func (n node) props() map[string]any {
	p, _ := n.m["properties"].(map[string]any)
	return p
}

func (n node) required() []string {
	var out []string
	for _, r := range n.list("required") {
		if s, ok := r.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func (n node) child(key string) (node, bool) {
	v, ok := n.m[key]
	if !ok {
		return node{}, false
	}
	return wrap(v, n.root), true
}

// closed reports whether unknown members are refused (additionalProperties or
// unevaluatedProperties false).
func (n node) closed() bool {
	for _, k := range []string{"additionalProperties", "unevaluatedProperties"} {
		if b, ok := n.m[k].(bool); ok && !b {
			return true
		}
	}
	return false
}

// intNumber renders an integer-valued float as a JSON integer token.
func intNumber(f float64) json.Number { return json.Number(strconv.FormatFloat(f, 'f', -1, 64)) }
