package octet

import (
	"math"
	"reflect"
	"strings"
)

// boundIntegers adds to a derived schema the range of every sized or unsigned integer
// field (uint8: 0..255, int32: -2^31..2^31-1, uint: 0..), unless a tag already set that
// bound: the schema then refuses what encoding/json could not decode into the field, with
// the validator's pointer, instead of letting it through to a decode error (found by
// certify's tools.valid_arguments: render_swatch's uint8 colour channels allowed -1000000).
func boundIntegers(t reflect.Type, doc map[string]any) {
	if doc == nil {
		return
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		props, _ := doc["properties"].(map[string]any)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name := f.Name
			if tag, ok := f.Tag.Lookup("json"); ok {
				n, _, _ := strings.Cut(tag, ",")
				if n == "-" {
					continue
				}
				if n != "" {
					name = n
				}
			}
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				boundIntegers(f.Type, doc)
				continue
			}
			p, _ := props[name].(map[string]any)
			boundIntegers(f.Type, p)
		}
	case reflect.Slice, reflect.Array:
		items, _ := doc["items"].(map[string]any)
		boundIntegers(t.Elem(), items)
	case reflect.Map:
		values, _ := doc["additionalProperties"].(map[string]any)
		boundIntegers(t.Elem(), values)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		if doc["type"] != "integer" {
			return
		}
		lo, hi, hasHi := 0.0, 0.0, true
		switch t.Kind() {
		case reflect.Int8, reflect.Int16, reflect.Int32:
			bits := t.Bits()
			lo, hi = -math.Exp2(float64(bits-1)), math.Exp2(float64(bits-1))-1
		case reflect.Uint8, reflect.Uint16, reflect.Uint32:
			hi = math.Exp2(float64(t.Bits())) - 1
		default:
			hasHi = false // uint, uint64: beyond the wire's ±(2^53-1) anyway
		}
		if _, ok := doc["minimum"]; !ok {
			if _, ok := doc["exclusiveMinimum"]; !ok {
				doc["minimum"] = lo
			}
		}
		if _, ok := doc["maximum"]; !ok && hasHi {
			if _, ok := doc["exclusiveMaximum"]; !ok {
				doc["maximum"] = hi
			}
		}
	}
}
