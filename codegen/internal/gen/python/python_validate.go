package python

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// pySpec turns a type into the compact spec the generated Python checker interprets.
func pySpec(m *ir.Model, t *ir.Type) map[string]any {
	if t.Ref != "" {
		return map[string]any{"ref": t.Ref}
	}
	s := map[string]any{}
	if len(t.OneOf) > 0 {
		var names []string
		for _, v := range t.OneOf {
			names = append(names, v.Ref)
		}
		s["oneof"] = names
		s["prop"] = t.Disc.Property
		s["values"] = t.Disc.Values
		s["keys"] = t.Disc.Keys
		return s
	}
	kinds := []string{}
	for _, k := range t.Kinds {
		kinds = append(kinds, string(k))
	}
	s["kinds"] = kinds
	if t.Const != nil {
		s["const"] = t.Const
	}
	if len(t.Enum) > 0 {
		s["enum"] = t.Enum
	}
	for k, v := range map[string]*int64{"minLength": t.MinLength, "maxLength": t.MaxLength, "minBytes": t.MinBytes, "maxBytes": t.MaxBytes, "minItems": t.MinItems, "maxItems": t.MaxItems} {
		if v != nil {
			s[k] = *v
		}
	}
	if t.Minimum != nil {
		s["minimum"] = *t.Minimum
	}
	if t.Maximum != nil {
		s["maximum"] = *t.Maximum
	}
	if t.Pattern != "" {
		// Python's $ also matches before a final newline; \Z is the true end.
		s["pattern"] = strings.ReplaceAll(t.Pattern, "$", `\Z`)
	}
	if t.Unique {
		s["unique"] = true
	}
	if t.Items != nil {
		s["items"] = pySpec(m, t.Items)
	}
	if t.Has(ir.Object) {
		s["open"] = t.Open
		fields := []any{}
		for _, f := range t.Fields {
			fields = append(fields, []any{f.Name, pySpec(m, f.Type), f.Required})
		}
		s["fields"] = fields
	}
	return s
}

func pyValidators(b *bytes.Buffer, m *ir.Model) {
	// Each spec is its JSON text, decoded by _strict on the first check that reaches the type:
	// a start checks a few dozen of the ~200 types, and the decoded dicts of all of them were
	// about 190 KiB of every extension's resident set and most of this module's load time.
	b.WriteString("\n# -- Schema types, as specs for the checker (one entry per type, schema order; JSON text,\n")
	b.WriteString("# decoded on first use by octet_extension._strict) --\n\n_SPECS: Final[dict[str, Any]] = {\n")
	for _, n := range m.Types {
		js, _ := json.Marshal(pySpec(m, n.Type))
		fmt.Fprintf(b, "    %s: %s,\n", strconv.Quote(n.Name), pyRawText(string(js)))
	}
	b.WriteString("}\n")
	b.WriteString(`

def validate(type_name: str, value: object) -> list[str]:
    """Check value (from parse_strict) against a schema type; return the violations."""
    return check(type_name, value)


def type_names() -> list[str]:
    """Every schema type validate knows."""
    return list(_SPECS)


register(_SPECS)
`)
}

// pyRawText is a Python literal of JSON text: a raw string, so the text reads as it is (a
// raw string keeps every backslash, and json.Marshal output has no newline and never ends in
// one), or, when the text holds a quote a raw string cannot, strconv.Quote's form, whose
// escapes (\" \\ \xNN \uNNNN \UNNNNNNNN) mean the same in a Python string.
func pyRawText(js string) string {
	if strings.ContainsRune(js, '\'') {
		return strconv.Quote(js)
	}
	return "r'" + js + "'"
}
