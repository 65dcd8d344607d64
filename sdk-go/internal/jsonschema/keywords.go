package jsonschema

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Assertion keywords (the validation vocabulary): each compiles its value
// once, refusing a value of the wrong type with the keyword's pointer, into a
// check of the instance. The same refusals and reasons as sdk-typescript's
// jsonschema/keywords.ts and sdk-python's _jsonschema/_kw_scalar.py.

// typeOrder is the order a type fault lists its types in, whatever the schema's.
var typeOrder = [...]string{"null", "boolean", "number", "integer", "string", "array", "object"}

func nonNegativeInteger(x *kctx, kw string) (int, bool) {
	v, has := x.raw[kw]
	if !has {
		return 0, false
	}
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		fail(x.at(kw), kw+" must be a non-negative integer")
	}
	return int(f), true
}

func finiteNumber(x *kctx, kw string) (float64, bool) {
	v, has := x.raw[kw]
	if !has {
		return 0, false
	}
	f, ok := number(v)
	if !ok || math.IsInf(f, 0) || math.IsNaN(f) {
		fail(x.at(kw), kw+" must be a number")
	}
	return f, true
}

func stringArray(kw string, v any, at string) []string {
	list, ok := v.([]any)
	if !ok {
		fail(at, kw+" must be an array of strings")
	}
	out := make([]string, 0, len(list))
	for _, s := range list {
		name, ok := s.(string)
		if !ok {
			fail(at, kw+" must be an array of strings")
		}
		if slices.Contains(out, name) {
			fail(at, kw+" must not repeat a name")
		}
		out = append(out, name)
	}
	return out
}

// typeNames is the type keyword's value as a list of names ("" when absent).
func typeNames(x *kctx) ([]string, bool) {
	t, has := x.raw["type"]
	if !has {
		return nil, false
	}
	var names []string
	switch t := t.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, n := range t {
			s, _ := n.(string)
			names = append(names, s)
		}
	}
	valid := len(names) > 0
	for i, n := range names {
		valid = valid && slices.Contains(typeOrder[:], n) && !slices.Contains(names[:i], n)
	}
	if !valid {
		fail(x.at("type"), "type must be one of null, boolean, object, array, number, string, integer or a non-empty array of them")
	}
	return names, true
}

// typeWant is the "want type" part of a type fault, in typeOrder.
func typeWant(names []string) string {
	var want []string
	for _, n := range typeOrder {
		if slices.Contains(names, n) {
			want = append(want, n)
		}
	}
	return strings.Join(want, " or ")
}

func compileType(x *kctx) check {
	names, has := typeNames(x)
	if !has {
		return nil
	}
	var object, array, str, num, integer, boolean, null bool
	for _, n := range names {
		switch n {
		case "object":
			object = true
		case "array":
			array = true
		case "string":
			str = true
		case "number":
			num = true
		case "integer":
			integer = true
		case "boolean":
			boolean = true
		case "null":
			null = true
		}
	}
	want := typeWant(names)
	return func(v any, st *state, _ *evaluated) bool {
		var ok bool
		switch v := v.(type) {
		case string:
			ok = str
		case map[string]any:
			ok = object
		case []any:
			ok = array
		case bool:
			ok = boolean
		case nil:
			ok = null
		default:
			f, isNum := number(v)
			ok = isNum && (num || integer && f == math.Trunc(f) && !math.IsInf(f, 0))
		}
		if !ok && st.collect {
			st.report("type", "want type "+want+", got "+typeName(v))
		}
		return ok
	}
}

func compileConstEnum(x *kctx) []check {
	var out []check
	if want, has := x.raw["const"]; has {
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			if equal(v, want) {
				return true
			}
			if st.collect {
				st.report("const", "want constant "+CompactJSON(want))
			}
			return false
		})
	}
	if raw, has := x.raw["enum"]; has {
		values, ok := raw.([]any)
		if !ok {
			fail(x.at("enum"), "enum must be an array")
		}
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			for _, e := range values {
				if equal(v, e) {
					return true
				}
			}
			if st.collect {
				st.report("enum", "want one of "+CompactJSON(values))
			}
			return false
		})
	}
	return out
}

func compileNumeric(x *kctx) []check {
	var out []check
	bound := func(kw, words string, holds func(cmp int) bool) {
		b, has := finiteNumber(x, kw)
		if !has {
			return
		}
		raw := x.raw[kw]
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			f, ok := number(v)
			if !ok {
				return true
			}
			cmp, exact := compareExact(v, raw)
			if !exact {
				cmp = cmpFloat(f, b)
			}
			if holds(cmp) {
				return true
			}
			if st.collect {
				st.report(kw, words+" "+numberText(raw)+", got "+numberText(v))
			}
			return false
		})
	}
	bound("minimum", "want at least", func(c int) bool { return c >= 0 })
	bound("maximum", "want at most", func(c int) bool { return c <= 0 })
	bound("exclusiveMinimum", "want more than", func(c int) bool { return c > 0 })
	bound("exclusiveMaximum", "want less than", func(c int) bool { return c < 0 })
	if m, has := finiteNumber(x, "multipleOf"); has {
		if m <= 0 {
			fail(x.at("multipleOf"), "multipleOf must be greater than 0")
		}
		raw := x.raw["multipleOf"]
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			f, ok := number(v)
			if !ok {
				return true
			}
			if i := bigInteger(v); i != nil && bigMultipleOf(i, raw) || i == nil && isMultipleOf(f, m) {
				return true
			}
			if st.collect {
				st.report("multipleOf", "want a multiple of "+numberText(raw)+", got "+numberText(v))
			}
			return false
		})
	}
	return out
}

// cmpFloat is -1, 0 or +1 as v is below, equal to or above b.
func cmpFloat(v, b float64) int {
	switch {
	case v < b:
		return -1
	case v > b:
		return 1
	}
	return 0
}

func compileString(x *kctx) []check {
	var out []check
	lo, hasLo := nonNegativeInteger(x, "minLength")
	hi, hasHi := nonNegativeInteger(x, "maxLength")
	if hasLo || hasHi {
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			s, isStr := v.(string)
			if !isStr {
				return true
			}
			// len(s) (bytes) bounds the code points from above, and 4 bytes a code
			// point from below: count only when those bounds do not decide.
			if (!hasLo || len(s) >= 4*lo) && (!hasHi || len(s) <= hi) {
				return true
			}
			n := utf8.RuneCountInString(s)
			short, long := hasLo && n < lo, hasHi && n > hi
			if !short && !long {
				return true
			}
			if st.collect {
				if short {
					st.report("minLength", fmt.Sprintf("want at least %d characters, got %d", lo, n))
				}
				if long {
					st.report("maxLength", fmt.Sprintf("want at most %d characters, got %d", hi, n))
				}
			}
			return false
		})
	}
	if raw, has := x.raw["pattern"]; has {
		source, ok := raw.(string)
		if !ok {
			fail(x.at("pattern"), "pattern must be a string")
		}
		re := x.comp.pattern(source, x.at("pattern"))
		reason := "want a string matching " + QuoteString(source)
		out = append(out, func(v any, st *state, _ *evaluated) bool {
			s, isStr := v.(string)
			if !isStr || re.MatchString(s) {
				return true
			}
			if st.collect {
				st.report("pattern", reason)
			}
			return false
		})
	}
	if raw, has := x.raw["format"]; has {
		format, ok := raw.(string)
		if !ok {
			fail(x.at("format"), "format must be a string")
		}
		if x.assertFormat {
			out = append(out, func(v any, st *state, _ *evaluated) bool {
				if checkFormat(format, v) {
					return true
				}
				if st.collect {
					st.report("format", "want format "+format)
				}
				return false
			})
		}
	}
	return out
}
