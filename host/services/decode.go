package services

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// decodeParams decodes raw into dst (a pointer to a struct) strictly:
// unknown fields, wrong-case field names, missing required fields and null
// where the wire does not allow it are -32602 errors naming the field path.
// Go's encoding/json alone matches names case-insensitively and ignores
// unknown fields, which would let a peer smuggle fields past validation.
//
// Field rules come from the json tag: a field with omitempty is optional
// (absent allowed, null refused), one without is required; the extra tag
// `octet:"nullable"` admits null.
func decodeParams(raw json.RawMessage, dst any) error { return decodeAt(raw, dst, "") }

// decodeAt is decodeParams for a value nested at path.
func decodeAt(raw json.RawMessage, dst any, path string) error {
	t := reflect.TypeOf(dst).Elem()
	if err := checkShape(raw, t, path); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return invalidParams(joinPath(path, te.Field), "must be %s, not %s", jsonKind(te.Type), te.Value)
		}
		return invalidParams(path, "%v", err)
	}
	return nil
}

var rawMessageType = reflect.TypeOf(json.RawMessage{})

func checkShape(raw json.RawMessage, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType || t.Kind() == reflect.Interface {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if hasUnmarshaler(t) {
			return nil
		}
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return invalidParams(path, "must be an object")
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(trimmed, &fields); err != nil {
			return invalidParams(path, "is not a valid object: %v", err)
		}
		known := map[string]bool{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			known[name] = true
			fp := joinPath(path, name)
			v, present := fields[name]
			optional := strings.Contains(opts, "omitempty")
			nullable := f.Tag.Get("octet") == "nullable"
			switch {
			case !present && !optional:
				return invalidParams(fp, "is required")
			case !present:
				continue
			case bytes.Equal(bytes.TrimSpace(v), []byte("null")):
				if !nullable && f.Type != rawMessageType {
					return invalidParams(fp, "must not be null")
				}
				continue
			}
			if err := checkShape(v, f.Type, fp); err != nil {
				return err
			}
		}
		for name := range fields {
			if !known[name] {
				return invalidParams(joinPath(path, name), "is not a known field")
			}
		}
	case reflect.Slice:
		trimmed := bytes.TrimSpace(raw)
		if len(trimmed) == 0 || trimmed[0] != '[' {
			return invalidParams(path, "must be an array")
		}
		var items []json.RawMessage
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return invalidParams(path, "is not a valid array: %v", err)
		}
		for i, it := range items {
			if bytes.Equal(bytes.TrimSpace(it), []byte("null")) && t.Elem().Kind() != reflect.Interface && t.Elem() != rawMessageType {
				return invalidParams(fmt.Sprintf("%s[%d]", path, i), "must not be null")
			}
			if err := checkShape(it, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.String:
		var s string
		if err := json.Unmarshal(raw, &s); err == nil && !utf8.ValidString(s) {
			return invalidParams(path, "is not valid UTF-8")
		}
	}
	return nil
}

func hasUnmarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem())
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

// chars counts code points (wire "chars" limits).
func chars(s string) int { return utf8.RuneCountInString(s) }

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

// hasControl reports C0/C1 control characters other than tab and newline:
// presentation and notification text is plain text, never terminal escapes.
func hasControl(s string, allowNewlines bool) bool {
	for _, r := range s {
		if r == '\t' || (allowNewlines && (r == '\n' || r == '\r')) {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return true
		}
	}
	return false
}
