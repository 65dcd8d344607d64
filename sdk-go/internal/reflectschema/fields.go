package reflectschema

import (
	"reflect"
	"slices"
	"strings"
)

// fields adds t's fields to the object schema s: each under its json name, its
// schema refined by the field's jsonschema tags; an embedded struct without a json
// name (or a field tagged json:",inline") contributes its fields to s itself.
func (d *deriver) fields(t reflect.Type, s map[string]any) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := range t.NumField() {
		if err := d.field(t.Field(i), s); err != nil {
			return err
		}
	}
	return nil
}

// field adds one field to s.
func (d *deriver) field(f reflect.StructField, s map[string]any) error {
	jsonTags := strings.Split(f.Tag.Get("json"), ",")
	schemaTags := strings.Split(f.Tag.Get("jsonschema"), ",")
	if jsonTags[0] == "-" || schemaTags[0] == "-" {
		return nil
	}
	if embedded(f, jsonTags) {
		return d.fields(f.Type, s)
	}
	name := f.Name
	if jsonTags[0] != "" {
		name = jsonTags[0]
	}
	if !f.Anonymous && !f.IsExported() {
		return nil
	}
	prop, err := d.typeSchema(f.Type)
	if err != nil {
		return fieldError(f, err)
	}
	if err := applyTags(f, prop, s, name); err != nil {
		return fieldError(f, err)
	}
	if slices.Contains(schemaTags, "nullable") {
		prop = map[string]any{"oneOf": []any{prop, map[string]any{"type": "null"}}}
	}
	s["properties"].(map[string]any)[name] = prop
	if required(jsonTags, schemaTags) {
		req, _ := s["required"].([]any)
		if !slices.Contains(req, any(name)) {
			s["required"] = append(req, name)
		}
	}
	return nil
}

// embedded reports whether f's fields belong to the enclosing object, as
// encoding/json treats an anonymous struct (or pointer to one) without a json
// name, and as the `inline` json option asks.
func embedded(f reflect.StructField, jsonTags []string) bool {
	if f.Anonymous && jsonTags[0] == "" {
		k := f.Type.Kind()
		if k == reflect.Struct || k == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct {
			return true
		}
	}
	return slices.Contains(jsonTags[1:], "inline")
}

// required: a field is required unless its json tag says omitempty, and always
// when its jsonschema tag says required.
func required(jsonTags, schemaTags []string) bool {
	return !slices.Contains(jsonTags[1:], "omitempty") || slices.Contains(schemaTags, "required")
}

// fieldError names the field a derivation failed at.
func fieldError(f reflect.StructField, err error) error {
	return &FieldError{Field: f.Name, Err: err}
}

// FieldError is a failed derivation with the path of fields it failed at.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string {
	path := e.Field
	err := e.Err
	for {
		inner, ok := err.(*FieldError)
		if !ok {
			break
		}
		path += "." + inner.Field
		err = inner.Err
	}
	return "field " + path + ": " + err.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }
