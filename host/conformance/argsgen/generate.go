// Package argsgen generates tool arguments from a tool's parameters JSON Schema, for
// certify to call the tool with: valid ones that sit on the schema's edges (each enum
// value, each bound, empty strings and arrays, optional members absent and present) and
// invalid ones that break exactly one rule each.
//
// Generation is deterministic for a seed. Every case is judged by the host's own
// validator (santhosh-tekuri/jsonschema, host.JudgeSchema) before it is used: a "valid"
// case the oracle refuses, or an "invalid" one it accepts or faults somewhere else than
// the rule meant, is dropped, so the generator may be approximate and certify never
// blames an extension for the generator's mistake.
package argsgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/octet-kit/octet/host"
)

// Case is one set of arguments to call a tool with.
type Case struct {
	Args  json.RawMessage // the arguments object, as sent
	Valid bool
	What  string // what the case shows: "/count: maximum 10", "required member \"label\" missing"
	// Pointer is, for an invalid case, the RFC 6901 pointer of the failing value inside the
	// arguments as the host's validator reports it ("" the arguments object itself).
	Pointer string
	Keyword string
	Example bool // from the manifest's [certify] table
}

// Options bound a plan.
type Options struct {
	Seed int64
	// Calls is the most valid and the most invalid cases each (examples come on top).
	Calls int
}

// Plan is the cases for one tool.
type Plan struct {
	Valid, Invalid []Case
	// BadExamples are examples from the manifest the tool's schema refuses.
	BadExamples []Case
	// Dropped counts generated cases the oracle did not confirm.
	Dropped int
}

// Generate plans the calls of a tool whose parameters schema is params.
func Generate(params json.RawMessage, examples []json.RawMessage, o Options) (*Plan, error) {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("parameters schema is not JSON: %v", err)
	}
	root, _ := doc.(map[string]any)
	n := wrap(doc, root)
	if _, err := host.JudgeSchema(params, []byte("{}")); err != nil {
		return nil, fmt.Errorf("parameters schema does not compile: %v", err)
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x6f63746574))
	p := &Plan{}
	seen := map[string]bool{}
	judge := func(v variant, want bool) (Case, bool) {
		raw, err := json.Marshal(v.value)
		if err != nil {
			return Case{}, false
		}
		key := fmt.Sprintf("%t%s", want, raw)
		if seen[key] {
			return Case{}, false
		}
		seen[key] = true
		f, err := host.JudgeSchema(params, raw)
		if err != nil {
			p.Dropped++
			return Case{}, false
		}
		c := Case{Args: raw, Valid: f == nil, What: v.label}
		if f != nil {
			c.Pointer, c.Keyword = f.Pointer, f.Keyword
		}
		// The root must stay an object (arguments are one on the wire); an invalid case
		// must fault exactly where its rule is.
		_, isObject := v.value.(map[string]any)
		if c.Valid != want || !isObject || !want && c.Pointer != v.at {
			p.Dropped++
			return Case{}, false
		}
		return c, true
	}
	for i, ex := range examples {
		f, err := host.JudgeSchema(params, ex)
		if err != nil {
			return nil, err
		}
		c := Case{Args: ex, Valid: f == nil, What: fmt.Sprintf("example %d from the manifest", i+1), Example: true}
		if f != nil {
			c.Pointer, c.Keyword, c.What = f.Pointer, f.Keyword, fmt.Sprintf("example %d from the manifest: %s at %q: %s", i+1, f.Keyword, f.Pointer, f.Reason)
			p.BadExamples = append(p.BadExamples, c)
			continue
		}
		seen[fmt.Sprintf("true%s", ex)] = true
		p.Valid = append(p.Valid, c)
	}
	// The first two valid variants of an object (required only, every member) always run;
	// the rest are shuffled by the seed, with random members mixed in, and cut to Calls.
	vs := valid(n, "", 0)
	for range o.Calls / 4 {
		vs = append(vs, variant{label: "random members", value: random(n, rng, 0)})
	}
	head := min(2, len(vs))
	rest := vs[head:]
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	taken := 0
	for _, v := range vs {
		if taken >= o.Calls {
			break
		}
		if c, ok := judge(v, true); ok {
			p.Valid = append(p.Valid, c)
			taken++
		}
	}
	inv := invalid(n, "", 0)
	rng.Shuffle(len(inv), func(i, j int) { inv[i], inv[j] = inv[j], inv[i] })
	taken = 0
	for _, v := range inv {
		if taken >= o.Calls {
			break
		}
		if c, ok := judge(v, false); ok {
			p.Invalid = append(p.Invalid, c)
			taken++
		}
	}
	return p, nil
}

// random is a valid-looking value with members and values picked by rng.
func random(n node, rng *rand.Rand, depth int) any {
	if n.primary() == "object" && depth <= maxDepth {
		out, _ := base(n, depth).(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
		for _, name := range sortedKeys(n.props()) {
			child := wrap(n.props()[name], n.root)
			if _, req := out[name]; !req && rng.IntN(2) == 0 {
				continue
			}
			out[name] = random(child, rng, depth+1)
		}
		return out
	}
	if n.primary() == "string" && n.m["enum"] == nil && n.m["const"] == nil && n.m["pattern"] == nil {
		min, _ := n.count("minLength")
		max, maxOK := n.count("maxLength")
		hi := min + 24
		if maxOK && hi > max {
			hi = max
		}
		if hi < min {
			return base(n, depth)
		}
		return randomString(rng, min+rng.IntN(hi-min+1))
	}
	vs := valid(n, "", maxDepth) // the node's own edges, not its members'
	if len(vs) == 0 {
		return base(n, depth)
	}
	return vs[rng.IntN(len(vs))].value
}

// alphabet mixes ASCII, JSON escapes, non-ASCII and a character outside the BMP (a
// surrogate pair in UTF-16 languages).
var alphabet = []rune("abcXYZ019 _-./\"\\\té✓😀")

func randomString(rng *rand.Rand, n int) string {
	out := make([]rune, n)
	for i := range out {
		out[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(out)
}
