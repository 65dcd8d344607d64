package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
)

// canonical is the decoded value in a form every language writes identically, so three
// decoders can be compared by a hash: numbers as the bits of their float64 (-0 as 0, since
// Python reads an integer -0 as 0), strings and keys as the hex of their UTF-8, object
// members sorted by key. The drivers in sdk-python/tests and sdk-typescript/test write the
// same form; change all three together.
func canonical(v any) string {
	var b strings.Builder
	writeCanon(&b, v)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:8])
}

func writeCanon(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("n")
	case bool:
		if x {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case json.Number:
		f, _ := strconv.ParseFloat(string(x), 64)
		if f == 0 {
			f = 0 // -0 and 0 alike
		}
		b.WriteString("d")
		b.WriteString(strconv.FormatUint(math.Float64bits(f), 16))
	case string:
		b.WriteString("s")
		b.WriteString(hex.EncodeToString([]byte(x)))
	case []any:
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",")
			}
			writeCanon(b, e)
		}
		b.WriteString("]")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys) // byte order, as the hex of the keys sorts
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(hex.EncodeToString([]byte(k)))
			b.WriteString(":")
			writeCanon(b, x[k])
		}
		b.WriteString("}")
	default:
		b.WriteString("?")
	}
}
