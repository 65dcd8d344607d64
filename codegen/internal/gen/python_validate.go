package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// pyLiteral matches a bare JSON literal (never text inside a string: json.Marshal output has
// no spaces, so a bare literal always follows one of : , [).
var pyLiteral = regexp.MustCompile(`[:,\[](true|false|null)\b`)

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
	b.WriteString("\n# -- Schema types, as specs for the checker (one entry per type, schema order) --\n\n_SPECS: Final[dict[str, Any]] = {\n")
	for _, n := range m.Types {
		js, _ := json.Marshal(pySpec(m, n.Type))
		lit := pyLiteral.ReplaceAllStringFunc(string(js), func(tok string) string {
			return strings.NewReplacer("true", "True", "false", "False", "null", "None").Replace(tok)
		})
		// JSON string escapes are valid Python escapes; booleans/null are only ever bare values here.
		fmt.Fprintf(b, "    %q: %s,\n", n.Name, lit)
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
