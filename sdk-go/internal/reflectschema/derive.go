// Package reflectschema derives a JSON Schema (draft 2020-12) from a Go type, the
// schema the SDK announces for a tool's arguments and structured result. It is the
// SDK's own so that an extension binary links nothing it does not need: the
// library it replaces imported net (which makes every binary link libc
// dynamically) and ran package initialisers at every start (issue 17). The rules
// are the ones docs/go.md states, and a differential test holds the output equal,
// byte for byte after key sorting, to what github.com/invopop/jsonschema derived
// with DoNotReference and Anonymous set.
//
// A schema is a map[string]any holding only what JSON decoding produces (string,
// float64, bool, []any, map[string]any), so the document marshals to the same
// bytes the SDK announced before and can be handed on without a round trip.
package reflectschema

import (
	"fmt"
	"reflect"
	"time"
)

// Derive returns the schema of t (pointers are followed): every type inline, no
// $defs, no $schema or $id. A type that refers to itself cannot be written inline
// and is an error naming it, as is a kind JSON cannot carry (chan, func, complex).
func Derive(t reflect.Type) (map[string]any, error) {
	d := &deriver{open: map[reflect.Type]bool{}}
	s, err := d.typeSchema(t)
	if err != nil {
		return nil, err
	}
	emptyToTrue(s)
	return s, nil
}

// deriver carries the struct types being derived on the current path, to refuse
// recursion instead of descending for ever.
type deriver struct {
	open map[reflect.Type]bool
}

var timeType = reflect.TypeFor[time.Time]()

// isRawMessage: t is encoding/json's RawMessage (any JSON), named by path so this package need
// not care whether the caller imports it.
func isRawMessage(t reflect.Type) bool {
	return t.PkgPath() == "encoding/json" && t.Name() == "RawMessage"
}

// enumDescriptor is what protobuf-generated enum types have: jsonpb writes them as
// a string or an integer.
type enumDescriptor interface {
	EnumDescriptor() ([]byte, []int)
}

var enumDescriptorType = reflect.TypeFor[enumDescriptor]()

// typeSchema derives the schema of one type, before any field tag applies.
func (d *deriver) typeSchema(t reflect.Type) (map[string]any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := map[string]any{}
	if t.Implements(enumDescriptorType) {
		s["oneOf"] = []any{map[string]any{"type": "string"}, map[string]any{"type": "integer"}}
		return s, nil
	}
	// net.IP and net/url.URL are recognised by name: importing those packages
	// is what this package exists to avoid.
	if t.PkgPath() == "net" && t.Name() == "IP" {
		s["type"], s["format"] = "string", "ipv4"
		return s, nil
	}
	switch t.Kind() {
	case reflect.Struct:
		switch {
		case t == timeType:
			s["type"], s["format"] = "string", "date-time"
			return s, nil
		case t.PkgPath() == "net/url" && t.Name() == "URL":
			s["type"], s["format"] = "string", "uri"
			return s, nil
		}
		return s, d.structSchema(t, s)
	case reflect.Slice, reflect.Array:
		return s, d.listSchema(t, s)
	case reflect.Map:
		return s, d.mapSchema(t, s)
	case reflect.Interface:
		// any value: the empty schema
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s["type"] = "integer"
	case reflect.Float32, reflect.Float64:
		s["type"] = "number"
	case reflect.Bool:
		s["type"] = "boolean"
	case reflect.String:
		s["type"] = "string"
	default:
		return nil, fmt.Errorf("type %s: a %s has no JSON form", t, t.Kind())
	}
	return s, nil
}

// structSchema is a struct's object schema: its fields as properties, required
// unless omitempty, and no additional properties.
func (d *deriver) structSchema(t reflect.Type, s map[string]any) error {
	if d.open[t] {
		return fmt.Errorf("type %s refers to itself: a derived schema is written inline, so a recursive type needs its schema set explicitly", t)
	}
	d.open[t] = true
	defer delete(d.open, t)
	s["type"] = "object"
	s["properties"] = map[string]any{}
	s["additionalProperties"] = false
	return d.fields(t, s)
}

// listSchema is a slice's or array's: items of the element's schema (an array's
// length fixed by minItems and maxItems), except []byte, which encoding/json
// writes as a base64 string, and json.RawMessage, which may be any JSON.
func (d *deriver) listSchema(t reflect.Type, s map[string]any) error {
	if isRawMessage(t) {
		return nil
	}
	if t.Kind() == reflect.Array {
		s["minItems"], s["maxItems"] = float64(t.Len()), float64(t.Len())
	}
	if t.Kind() == reflect.Slice && t.Elem() == reflect.TypeFor[byte]() {
		s["type"], s["contentEncoding"] = "string", "base64"
		return nil
	}
	s["type"] = "array"
	items, err := d.typeSchema(t.Elem())
	if err != nil {
		return err
	}
	s["items"] = items
	return nil
}

// mapSchema is a map's object schema: values of the element's schema; a map with
// signed integer keys has decimal keys only.
func (d *deriver) mapSchema(t reflect.Type, s map[string]any) error {
	s["type"] = "object"
	switch t.Key().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		values, err := d.typeSchema(t.Elem())
		if err != nil {
			return err
		}
		s["patternProperties"] = map[string]any{"^[0-9]+$": values}
		s["additionalProperties"] = false
		return nil
	}
	if t.Elem().Kind() == reflect.Interface {
		return nil
	}
	values, err := d.typeSchema(t.Elem())
	if err != nil {
		return err
	}
	s["additionalProperties"] = values
	return nil
}
