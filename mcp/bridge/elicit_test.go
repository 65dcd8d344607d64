package bridge

import (
	"reflect"
	"testing"
)

func TestFieldValue(t *testing.T) {
	enum := map[string]any{"enum": []any{"Monica", "Ross"}}
	titled := map[string]any{"oneOf": []any{map[string]any{"const": "hero-1"}, map[string]any{"const": "hero-2"}}}
	arr := map[string]any{"items": map[string]any{"type": "string", "enum": []any{"Guitar", "Piano"}}}
	for _, c := range []struct {
		typ  string
		prop map[string]any
		in   string
		want any
	}{
		{"boolean", nil, "yes", true},
		{"boolean", nil, "No", false},
		{"integer", nil, "42", int64(42)},
		{"number", nil, "3.5", 3.5},
		{"string", enum, "Ross", "Ross"},
		{"string", titled, "hero-2", "hero-2"},
		{"array", arr, "Guitar, Piano", []any{"Guitar", "Piano"}},
		{"string", nil, "free text", "free text"},
	} {
		got, err := fieldValue(c.typ, c.prop, c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("fieldValue(%s, %q) = %#v, %v; want %#v", c.typ, c.in, got, err, c.want)
		}
	}
	for _, c := range []struct {
		typ  string
		prop map[string]any
		in   string
	}{
		{"boolean", nil, "perhaps"}, {"integer", nil, "4.5"}, {"number", nil, "lots"},
		{"string", enum, "Joey"}, {"array", arr, "Guitar, Banjo"},
	} {
		if _, err := fieldValue(c.typ, c.prop, c.in); err == nil {
			t.Errorf("fieldValue(%s, %q) accepted a bad answer", c.typ, c.in)
		}
	}
}
