package octet

import (
	"encoding/json"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/sdk-go/internal/jsonschema"
)

// The fault contract's printing (docs/conformance.md#validation-faults):
// numbers as ECMAScript prints them, values as compact JSON with sorted keys
// and only quote, backslash and control characters escaped.
// ratString prints a number as the contract does: the nearest float64 in
// ECMAScript's Number.prototype.toString form.
func ratString(r *big.Rat) string {
	if r == nil {
		return "null"
	}
	f, _ := r.Float64()
	if math.IsInf(f, 0) { // beyond float64: exact digits (only an integer gets here in practice)
		if r.IsInt() {
			return r.Num().String()
		}
		return r.FloatString(20)
	}
	return esNumber(f)
}

// esNumber is the validator's ECMAScript number form: the oracle's faults must print
// numbers exactly as the SDK's do, so they share it.
func esNumber(f float64) string { return jsonschema.ESNumber(f) }

// faultJSON writes a value as the contract's compact JSON: sorted keys, only
// quote, backslash and control characters escaped, numbers as esNumber.
func faultJSON(v any) string {
	var b strings.Builder
	writeFaultJSON(&b, v)
	return b.String()
}

func writeFaultJSON(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeFaultString(b, v)
	case json.Number:
		if f, err := strconv.ParseFloat(string(v), 64); err == nil {
			b.WriteString(esNumber(f))
		} else {
			b.WriteString(string(v))
		}
	case float64:
		b.WriteString(esNumber(v))
	case int:
		b.WriteString(esNumber(float64(v)))
	case int64:
		b.WriteString(esNumber(float64(v)))
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeFaultJSON(b, x)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeFaultString(b, k)
			b.WriteByte(':')
			writeFaultJSON(b, v[k])
		}
		b.WriteByte('}')
	default:
		raw, _ := json.Marshal(v)
		b.Write(raw)
	}
}

func writeFaultString(b *strings.Builder, s string) { b.WriteString(jsonschema.QuoteString(s)) }
