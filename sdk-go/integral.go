package octet

import (
	"encoding/json"
	"math"
	"strconv"
)

// maxExactInteger is 2^53: every integer up to it in magnitude is a float64 exactly, so an
// integral number written 7.0 or 7e0 within it has one integer text that means the same.
const maxExactInteger = 1 << 53

// integralArgs returns raw with every number written with a fraction or an exponent whose
// value is an integer within ±2^53 (7.0, 7e0, -0.0) rewritten as that integer (7, 0), so a
// typed handler's int field receives 7 where draft 2020-12 accepted 7.0 as an integer
// (encoding/json refuses to decode 7.0 into an int). Every other byte is kept; raw is
// returned unchanged (no copy) when it holds no such number, the common case. raw is valid
// JSON (the strict parse already accepted it).
func integralArgs(raw json.RawMessage) json.RawMessage {
	var out []byte // nil until the first rewrite
	last := 0
	for i := 0; i < len(raw); {
		c := raw[i]
		if c == '"' {
			i = stringEnd(raw, i)
			continue
		}
		if c != '-' && (c < '0' || c > '9') {
			i++
			continue
		}
		start := i
		float := false
		for i < len(raw) && isNumberByte(raw[i]) {
			float = float || raw[i] == '.' || raw[i] == 'e' || raw[i] == 'E'
			i++
		}
		if !float {
			continue
		}
		f, err := strconv.ParseFloat(string(raw[start:i]), 64)
		if err != nil || f != math.Trunc(f) || math.Abs(f) > maxExactInteger {
			continue
		}
		out = append(out, raw[last:start]...)
		out = strconv.AppendInt(out, int64(f), 10)
		last = i
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// stringEnd is the index just past the JSON string whose opening quote is at i.
func stringEnd(raw []byte, i int) int {
	for i++; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(raw)
}
