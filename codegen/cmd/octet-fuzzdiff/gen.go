package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
	"github.com/octet-kit/octet/schema"
)

// seedDoc is one vector: the type it is a vector of and its bytes.
type seedDoc struct {
	typ string
	raw []byte
}

// gen makes documents from the vectors, deterministically from its random source: a vector
// as it is, mutated as a tree (a member dropped, added or retyped, a boundary value put in),
// mutated as bytes (the strict decoding rules: escapes, numbers, UTF-8, duplicates), or a
// random JSON text.
type gen struct {
	r        *rand.Rand
	seeds    []seedDoc
	maxDepth int // MAX_JSON_DEPTH, from the schema's limits
}

// newGen is the corpus generator for seed.
func newGen(seed uint64, seeds []seedDoc, maxDepth int) *gen {
	return &gen{r: rand.New(rand.NewPCG(seed, seed^0x6f63746574)), seeds: seeds, maxDepth: maxDepth}
}

// maxJSONDepth is the schema's MAX_JSON_DEPTH.
func maxJSONDepth(m *ir.Model) (int, error) {
	for _, l := range m.Limits {
		if l.Name == "MAX_JSON_DEPTH" {
			return int(l.Value), nil
		}
	}
	return 0, fmt.Errorf("the schema's limits have no MAX_JSON_DEPTH")
}

// boundary values every validator must judge alike: integer and float forms, the 2^53
// edge, float64's edge, empty and long strings, and non-ASCII text counted in code points.
var boundary = []string{
	`0`, `-0`, `1`, `-1`, `1.0`, `1e0`, `0.5`, `9007199254740991`, `9007199254740992`, `-9007199254740992`,
	`1.7976931348623157e308`, `5e-324`, `1e300`, `2147483648`, `""`, `"x"`, `"é"`, `"😀"`, `"\u0000"`,
	`"` + strings.Repeat("é", 129) + `"`, `"` + strings.Repeat("a", 4097) + `"`, `"0.1"`, `"A_b"`, `"-"`,
	maxFloat64, maxFloat64Below, maxFloat64Past, "-" + maxFloat64Past,
	`true`, `false`, `null`, `[]`, `{}`, `[null]`, `{"":1}`, `"2.0"`, `"0.2"`, `"0.3"`, `"https://x.invalid/"`,
}

// float64's largest value as an integer, the last integer that still rounds to it, and the
// first that rounds to infinity (refused as beyond float64 by every decoder).
var (
	maxFloat64      = bigInt(func(m, h *big.Int) *big.Int { return m })
	maxFloat64Below = bigInt(func(m, h *big.Int) *big.Int { return m.Add(m, h).Sub(m, big.NewInt(1)) })
	maxFloat64Past  = bigInt(func(m, h *big.Int) *big.Int { return m.Add(m, h) })
)

// bigInt applies f to (2^53-1)*2^971 (float64's largest value) and 2^970 (half its last step).
func bigInt(f func(m, h *big.Int) *big.Int) string {
	m := new(big.Int).Lsh(big.NewInt(1<<53-1), 971)
	h := new(big.Int).Lsh(big.NewInt(1), 970)
	return f(m, h).String()
}

// tokens are spliced into the text by byte mutations: what strict decoders refuse or might
// read differently.
var tokens = []string{
	`\ud800`, `\udc00`, `\ud83d\ude00`, `\u00e9`, `\"`, `\\`, "\xff", "\xc3", "\xed\xa0\x80", "\xc0\x80",
	"\xef\xbb\xbf", `1e400`, `-1e400`, `1.0`, `-0`, `1E2`, `01`, `.5`, `NaN`, `Infinity`, `,`, `:`, `"`,
	`{`, `}`, `[`, `]`, ` `, "\t", "\n", "\r", "\x00", "\x1f", `null`, `true`, `"a":1,`, `"a":1`,
	strings.Repeat("9", 310), strings.Repeat("[", 257), strings.Repeat("]", 257),
}

func (g *gen) doc() (typ string, data []byte) {
	s := g.seeds[g.r.IntN(len(g.seeds))]
	switch n := g.r.IntN(20); {
	case n < 2:
		return s.typ, s.raw
	case n < 11:
		return s.typ, g.treeMutate(s.raw)
	case n < 18:
		return s.typ, g.byteMutate(s.raw)
	default:
		var b bytes.Buffer
		g.randomJSON(&b, 0)
		return s.typ, b.Bytes()
	}
}

// treeMutate parses the vector, changes one to three nodes and writes it back.
func (g *gen) treeMutate(raw []byte) []byte {
	v, err := schema.Decode(raw)
	if err != nil {
		return g.byteMutate(raw)
	}
	for i := g.r.IntN(3); i >= 0; i-- {
		v = g.mutateNode(v, 0)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	if g.r.IntN(4) == 0 {
		out = g.duplicateKey(out)
	}
	return out
}

func (g *gen) mutateNode(v any, depth int) any {
	switch x := v.(type) {
	case map[string]any:
		keys := sortedKeys(x)
		if len(keys) > 0 && g.r.IntN(3) > 0 && depth < 12 {
			k := keys[g.r.IntN(len(keys))]
			if g.r.IntN(5) == 0 {
				delete(x, k) // a required member gone, or an optional one absent
				return x
			}
			x[k] = g.mutateNode(x[k], depth+1)
			return x
		}
		if g.r.IntN(2) == 0 {
			x[g.key()] = g.value() // an unknown member
			return x
		}
	case []any:
		if len(x) > 0 && g.r.IntN(3) > 0 && depth < 12 {
			i := g.r.IntN(len(x))
			switch g.r.IntN(4) {
			case 0:
				return append(x, x[i]) // a repeated item (uniqueItems)
			case 1:
				return append(x[:i], x[i+1:]...)
			}
			x[i] = g.mutateNode(x[i], depth+1)
			return x
		}
	}
	return g.value()
}

// value is a boundary value, a fragment of another vector, or a random small value.
func (g *gen) value() any {
	var text []byte
	switch g.r.IntN(3) {
	case 0:
		text = []byte(boundary[g.r.IntN(len(boundary))])
	case 1:
		text = g.seeds[g.r.IntN(len(g.seeds))].raw
	default:
		var b bytes.Buffer
		g.randomJSON(&b, 2)
		text = b.Bytes()
	}
	v, err := schema.Decode(text)
	if err != nil {
		return nil
	}
	return v
}

func (g *gen) key() string {
	keys := []string{"name", "type", "id", "text", "kind", "__proto__", "constructor", "", "é", "x-extra", "jsonrpc", "params", "arguments", "content", "is_error", "structured_content"}
	return keys[g.r.IntN(len(keys))]
}

// duplicateKey repeats the first member of the outermost object (a lenient decoder keeps
// the last value; every octet decoder must refuse it).
func (g *gen) duplicateKey(out []byte) []byte {
	if len(out) < 2 || out[0] != '{' || out[1] == '}' {
		return out
	}
	v, err := schema.Decode(out)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		return out
	}
	k := sortedKeys(m)[0]
	member, _ := json.Marshal(map[string]any{k: m[k]})
	return append(append(member[:len(member)-1:len(member)-1], ','), out[1:]...)
}

func (g *gen) byteMutate(raw []byte) []byte {
	out := append([]byte(nil), raw...)
	for i := g.r.IntN(3); i >= 0; i-- {
		if len(out) == 0 {
			out = append(out, tokens[g.r.IntN(len(tokens))]...)
			continue
		}
		at := g.r.IntN(len(out) + 1)
		switch g.r.IntN(5) {
		case 0, 1:
			tok := tokens[g.r.IntN(len(tokens))]
			out = append(out[:at:at], append([]byte(tok), out[at:]...)...)
		case 2:
			end := min(len(out), at+1+g.r.IntN(8))
			out = append(out[:at:at], out[end:]...)
		case 3:
			if at < len(out) {
				out[at] ^= byte(1 << g.r.IntN(8))
			}
		default:
			end := min(len(out), at+1+g.r.IntN(16))
			out = append(out[:at:at], append(append([]byte(nil), out[at:end]...), out[at:]...)...)
		}
	}
	return out
}

// randomJSON writes a random JSON text, mostly well-formed, with escapes, unusual numbers and
// deep nesting, so the decoders' rules are exercised on their own.
func (g *gen) randomJSON(b *bytes.Buffer, depth int) {
	if depth > 5 && g.r.IntN(2) == 0 || depth > 300 {
		b.WriteString(boundary[g.r.IntN(len(boundary))])
		return
	}
	switch g.r.IntN(9) {
	case 0:
		b.WriteString("{")
		for i := g.r.IntN(4); i > 0; i-- {
			g.randomString(b)
			b.WriteString(":")
			g.randomJSON(b, depth+1)
			if i > 1 {
				b.WriteString(",")
			}
		}
		b.WriteString("}")
	case 1:
		b.WriteString("[")
		for i := g.r.IntN(4); i > 0; i-- {
			g.randomJSON(b, depth+1)
			if i > 1 {
				b.WriteString(",")
			}
		}
		b.WriteString("]")
	case 2:
		n := g.maxDepth - 6 + g.r.IntN(12) // around the depth bound (MAX_JSON_DEPTH)
		b.WriteString(strings.Repeat("[", n))
		g.randomJSON(b, 301)
		b.WriteString(strings.Repeat("]", n))
	case 3, 4:
		g.randomString(b)
	case 5:
		nums := []string{"0", "-0", "12", "1.5", "1e5", "-2E-3", "1e309", "123456789012345678901234567890", "0.000001", "1e-400", "4.9e-324"}
		b.WriteString(nums[g.r.IntN(len(nums))])
	default:
		b.WriteString(boundary[g.r.IntN(len(boundary))])
	}
}

func (g *gen) randomString(b *bytes.Buffer) {
	parts := []string{"a", "é", "😀", `\n`, `\u0041`, `\ud83d\ude00`, `\ud800`, `\udfff`, `\"`, `\/`, "\x7f", "\u2028", `\u0000`, "\xf0\x9f", "\xe2\x82"}
	b.WriteString(`"`)
	for i := g.r.IntN(4); i > 0; i-- {
		b.WriteString(parts[g.r.IntN(len(parts))])
	}
	b.WriteString(`"`)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}
