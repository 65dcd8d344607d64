package jsonschema

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// JSON values as the validator sees them: what encoding/json with UseNumber (or
// the SDK's strictjson) produces, map[string]any, []any, string, bool, nil and
// json.Number, plus float64 and Go integers for documents built in Go. A number
// is compared as the float64 nearest to it, except integers beyond ±2^53, which
// are exact (bignum.go), as in the TypeScript and Python validators.

// number is v as a float64 when v is a JSON number.
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil && !isRangeErr(err) {
			return 0, false
		}
		return f, true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint:
		return float64(n), true
	}
	return 0, false
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// typeName is the JSON type a fault names for a value: every number is
// "number" (the contract's templates).
func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	if _, ok := number(v); ok {
		return "number"
	}
	return "unknown"
}

// equal is JSON equality: 1 and 1.0 are equal, true is never 1, objects are
// equal when they hold the same keys with equal values.
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, has := y[k]
			if !has || !equal(xv, yv) {
				return false
			}
		}
		return true
	}
	fa, ok := number(a)
	if !ok {
		return false
	}
	fb, ok := number(b)
	if !ok {
		return false
	}
	if cmp, exact := compareExact(a, b); exact {
		return cmp == 0
	}
	return fa == fb
}

// firstDuplicate is the first pair of equal items (i < k, k smallest), if any.
func firstDuplicate(items []any) (int, int, bool) {
	if len(items) <= 16 {
		for k := 1; k < len(items); k++ {
			for i := 0; i < k; i++ {
				if equal(items[i], items[k]) {
					return i, k, true
				}
			}
		}
		return 0, 0, false
	}
	seen := make(map[string]int, len(items))
	for k, it := range items {
		key := CompactJSON(it) // equal values print alike: sorted keys, shortest numbers
		if i, ok := seen[key]; ok {
			return i, k, true
		}
		seen[key] = k
	}
	return 0, 0, false
}

// ESNumber formats f as ECMAScript's Number.prototype.toString (shortest
// round-trip digits; plain notation for exponents -7 < e < 21): the contract's
// form of every number in a reason.
func ESNumber(f float64) string {
	if f == 0 {
		return "0"
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "null"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	digits, n := decimalDigits(f)
	k := len(digits)
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
	e := n - 1
	if e < 0 {
		e = -e
	}
	return sign + m + "e" + es + strconv.Itoa(e)
}

// decimalDigits: the shortest round-trip digits of f > 0 and the decimal
// point's position n (f = 0.DIGITS × 10^n).
func decimalDigits(f float64) (string, int) {
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	x, _ := strconv.Atoi(exp)
	return strings.Replace(mant, ".", "", 1), x + 1
}

// CompactJSON writes a value as the contract prints values: no whitespace,
// sorted keys, only quote, backslash and control characters escaped, numbers as
// ESNumber.
func CompactJSON(v any) string {
	var b strings.Builder
	writeJSON(&b, v)
	return b.String()
}

func writeJSON(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeString(b, v)
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, x)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := sortedKeys(v)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeJSON(b, v[k])
		}
		b.WriteByte('}')
	default:
		if _, ok := number(v); ok {
			b.WriteString(numberText(v))
			return
		}
		raw, _ := json.Marshal(v)
		b.Write(raw)
	}
}

// QuoteString is a string as the contract's compact JSON.
func QuoteString(s string) string {
	var b strings.Builder
	writeString(&b, s)
	return b.String()
}

func writeString(b *strings.Builder, s string) {
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
