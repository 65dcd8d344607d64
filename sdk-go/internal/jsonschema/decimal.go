package jsonschema

import (
	"math"
	"math/big"
	"strings"
)

// isMultipleOf: whether value is an integer multiple of divisor (> 0), exactly
// in decimal. 0.3 is a multiple of 0.1 although 0.3/0.1 is not an integer in
// binary floating point: both numbers are taken as the decimals they print as
// (their shortest round-trip text, what the author wrote for any JSON literal)
// and compared as scaled integers, as the TypeScript and Python validators do.
func isMultipleOf(value, divisor float64) bool {
	if math.IsInf(value, 0) || math.IsNaN(value) {
		return false
	}
	const safe = 1 << 53
	if value == math.Trunc(value) && divisor == math.Trunc(divisor) && math.Abs(value) < safe && divisor < safe {
		return math.Mod(value, divisor) == 0
	}
	vd, ve := toDecimal(value)
	dd, de := toDecimal(divisor)
	exp := min(ve, de)
	a := scale(vd, ve-exp)
	b := scale(dd, de-exp)
	return new(big.Int).Rem(a, b).Sign() == 0
}

// toDecimal: |n| as digits × 10^exp.
func toDecimal(n float64) (string, int) {
	if n == 0 {
		return "0", 0
	}
	digits, point := decimalDigits(math.Abs(n))
	return digits, point - len(digits)
}

func scale(digits string, by int) *big.Int {
	x, _ := new(big.Int).SetString(strings.TrimLeft(digits, "0")+"0", 10) // never empty
	x.Quo(x, big.NewInt(10))
	if by > 0 {
		x.Mul(x, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(by)), nil))
	}
	return x
}
