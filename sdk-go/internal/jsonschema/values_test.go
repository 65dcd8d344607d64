package jsonschema

import "testing"

func TestESNumber(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0", 1: "1", -1.5: "-1.5", 0.1: "0.1", 1e21: "1e+21", 1e20: "100000000000000000000",
		1.5e-7: "1.5e-7", 1e-6: "0.000001", 123.456: "123.456", 9007199254740991: "9007199254740991",
		-2.5e-10: "-2.5e-10", 1.2345e22: "1.2345e+22",
	} {
		if got := ESNumber(f); got != want {
			t.Errorf("ESNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

func TestIsMultipleOf(t *testing.T) {
	for _, c := range []struct {
		v, d float64
		want bool
	}{
		{0.3, 0.1, true}, {0.0075, 0.0001, true}, {4.5, 1.5, true}, {0.3, 0.2, false},
		{10, 3, false}, {9, 3, true}, {1e308, 0.5, true}, {0.00751, 0.0001, false}, {-6, 2, true},
	} {
		if got := isMultipleOf(c.v, c.d); got != c.want {
			t.Errorf("isMultipleOf(%v, %v) = %v, want %v", c.v, c.d, got, c.want)
		}
	}
}
