package jsonschema

import (
	"encoding/json"
	"math"
	"math/big"
	"strings"
)

// Integers beyond ±2^53, where float64 skips integers, are judged exactly: a JSON number
// written as an integer (json.Number without fraction or exponent) or a Go integer too large
// for a float64 is compared, tested for multipleOf and printed as the integer it is, as the
// Python validator does with its ints and the TypeScript one with the source text it keeps.
// 9007199254740993 is a multiple of 3 although the float64 nearest to it (2^53) is not.
// Every other number keeps the float64 path (no allocation); a number written with a
// fraction or an exponent is the float64 nearest to it, in every language alike.

// maxExact is 2^53: every integer up to it in magnitude is exactly a float64.
const maxExact = 1 << 53

// bigInteger is v as an exact integer when it is one beyond ±2^53, or nil.
func bigInteger(v any) *big.Int {
	switch n := v.(type) {
	case json.Number:
		s := string(n)
		// 2^53 has 16 digits: anything shorter is exact as a float64.
		if len(s) < 16 || strings.ContainsAny(s, ".eE") {
			return nil
		}
		i, ok := new(big.Int).SetString(s, 10)
		if !ok || i.IsInt64() && abs64(i.Int64()) <= maxExact {
			return nil
		}
		return i
	case int64:
		if abs64(n) > maxExact {
			return big.NewInt(n)
		}
	case int:
		if abs64(int64(n)) > maxExact {
			return big.NewInt(int64(n))
		}
	case uint64:
		if n > maxExact {
			return new(big.Int).SetUint64(n)
		}
	case uint:
		if n > maxExact {
			return new(big.Int).SetUint64(uint64(n))
		}
	}
	return nil
}

func abs64(i int64) int64 {
	if i < 0 {
		return -i
	}
	return i
}

// exactRat is a JSON number as an exact rational: its big integer when it has one, else its
// float64 (exactly). ok is false for what is no finite number.
func exactRat(v any) (*big.Rat, bool) {
	if i := bigInteger(v); i != nil {
		return new(big.Rat).SetInt(i), true
	}
	f, ok := number(v)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false
	}
	return new(big.Rat).SetFloat64(f), true
}

// compareExact compares two JSON numbers exactly when either is a big integer; handled is
// false when neither is (the caller's float64 comparison is then exact enough).
func compareExact(a, b any) (cmp int, handled bool) {
	if bigInteger(a) == nil && bigInteger(b) == nil {
		return 0, false
	}
	ra, okA := exactRat(a)
	rb, okB := exactRat(b)
	if !okA || !okB {
		return 0, false
	}
	return ra.Cmp(rb), true
}

// bigMultipleOf: whether the big integer i is a multiple of divisor (> 0, a JSON number),
// exactly in decimal as isMultipleOf.
func bigMultipleOf(i *big.Int, divisor any) bool {
	if d := bigInteger(divisor); d != nil {
		return new(big.Int).Rem(i, d).Sign() == 0
	}
	f, _ := number(divisor)
	digits, exp := toDecimal(f)
	d := scale(digits, max(exp, 0))
	a := new(big.Int).Abs(i)
	if exp < 0 {
		a.Mul(a, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-exp)), nil))
	}
	return new(big.Int).Rem(a, d).Sign() == 0
}

// numberText is a number as the contract prints it: a big integer as its digits, any other
// as ESNumber of its float64.
func numberText(v any) string {
	if i := bigInteger(v); i != nil {
		return i.String()
	}
	f, _ := number(v)
	return ESNumber(f)
}
