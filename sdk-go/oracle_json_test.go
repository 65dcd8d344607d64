package octet

import (
	"encoding/json"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
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

// esNumber formats f as ECMAScript's Number.prototype.toString (shortest
// round-trip digits; plain notation for exponents -7 < e < 21).
func esNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return sign + m + "e" + es + strconv.Itoa(abs(n-1))
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

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

func writeFaultString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xf])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
