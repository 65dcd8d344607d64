package python

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// pyType is the annotation of a field or alias.
func pyType(t *ir.Type) string {
	if t.Ref != "" {
		return t.Ref
	}
	if len(t.OneOf) > 0 {
		var v []string
		for _, o := range t.OneOf {
			v = append(v, o.Ref)
		}
		return strings.Join(v, " | ")
	}
	if t.Const != nil {
		switch c := t.Const.(type) {
		case string:
			return "Literal[" + pyStr(c) + "]"
		case bool:
			if c {
				return "Literal[True]"
			}
			return "Literal[False]"
		default:
			return fmt.Sprintf("Literal[%v]", c)
		}
	}
	if len(t.Enum) > 0 {
		q := make([]string, len(t.Enum))
		for i, e := range t.Enum {
			q[i] = pyStr(e)
		}
		return "Literal[" + strings.Join(q, ", ") + "]"
	}
	if len(t.Kinds) == 0 {
		return "Any"
	}
	var parts []string
	for _, k := range t.Kinds {
		switch k {
		case ir.String:
			parts = append(parts, "str")
		case ir.Integer:
			parts = append(parts, "int")
		case ir.Number:
			parts = append(parts, "float")
		case ir.Boolean:
			parts = append(parts, "bool")
		case ir.Null:
			parts = append(parts, "None")
		case ir.Array:
			parts = append(parts, "list["+pyType(t.Items)+"]")
		case ir.Object:
			parts = append(parts, "dict[str, Any]")
		}
	}
	return strings.Join(parts, " | ")
}

// pyTypes emits TypedDicts (trusted data costs nothing: they are plain dicts) and one
// validate_<type> function per schema type for untrusted data. The TypedDicts and aliases are
// defined for type checkers only (under TYPE_CHECKING): nothing reads them at run time, and
// building ~170 TypedDict classes cost about 5 ms of every extension's start.
func pyTypes(b *bytes.Buffer, types []*ir.Named) {
	if len(types) == 0 {
		return
	}
	b.WriteString("\n# -- Types (TypedDict: plain dicts at run time, so defined for type checkers only; check\n")
	b.WriteString("# untrusted data with validate_*) --\n\nif TYPE_CHECKING:\n")
	const in = "    "
	// Aliases of scalars and enums first, then classes, then unions (which name classes).
	first := true
	for _, n := range types {
		t := n.Type
		if (t.Has(ir.Object) && !t.Open) || len(t.OneOf) > 0 {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		pyComment(b, in, n.Name+": "+t.Description)
		fmt.Fprintf(b, "%s%s: TypeAlias = %s\n", in, n.Name, pyType(t))
	}
	for _, n := range types {
		t := n.Type
		if !t.Has(ir.Object) || t.Open || len(t.OneOf) > 0 {
			continue
		}
		fmt.Fprintf(b, "\n%sclass %s(TypedDict):\n", in, n.Name)
		doc := wrap(t.Description, 84)
		if len(doc) == 1 {
			fmt.Fprintf(b, "%s    \"\"\"%s\"\"\"\n", in, pyDocEscape(doc[0]))
		} else {
			fmt.Fprintf(b, "%s    \"\"\"%s\n\n", in, pyDocEscape(doc[0]))
			for _, l := range doc[1:] {
				fmt.Fprintf(b, "%s    %s\n", in, pyDocEscape(l))
			}
			fmt.Fprintf(b, "%s    \"\"\"\n", in)
		}
		if len(t.Fields) > 0 {
			b.WriteString("\n")
		}
		for _, f := range t.Fields {
			if f.Type.Description != "" {
				pyComment(b, in+"    ", f.Type.Description)
			}
			ann := pyType(f.Type)
			if !f.Required {
				ann = "NotRequired[" + ann + "]"
			}
			fmt.Fprintf(b, "%s    %s: %s\n", in, f.Name, ann)
		}
	}
	for _, n := range types {
		if len(n.Type.OneOf) == 0 {
			continue
		}
		b.WriteString("\n")
		pyComment(b, in, n.Name+": "+n.Type.Description)
		fmt.Fprintf(b, "%s%s: TypeAlias = %s\n", in, n.Name, pyStr(pyType(n.Type)))
	}
	b.WriteString("\n# -- Validators, one per type: check a value (from parse_strict) and return the violations --\n")
	for _, n := range types {
		fmt.Fprintf(b, "\n\ndef validate_%s(value: object) -> list[str]:\n    return validate(%s, value)\n", emit.Snake(n.Name), pyStr(n.Name))
	}
}

func pyDocEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"""`, `\"\"\"`)
}

func pyMethods(b *bytes.Buffer, m *ir.Model) {
	b.WriteString(`

# -- Method registry (schema/methods.json) --


class MethodInfo:
    """One row of the method registry (a slotted class: a NamedTuple would import typing)."""

    __slots__ = ("cancellable", "contribution", "direction", "errors", "feature", "kind", "name",
                 "params", "progress", "result", "versions")

    def __init__(self, name: str, direction: str, kind: str, versions: tuple[str, ...],
                 feature: str, contribution: str, cancellable: tuple[str, ...],
                 progress: tuple[str, ...], errors: tuple[int, ...], params: dict[str, str],
                 result: dict[str, str]) -> None:
        self.name = name
        self.direction = direction
        self.kind = kind
        self.versions = versions
        self.feature = feature
        self.contribution = contribution
        self.cancellable = cancellable
        self.progress = progress
        self.errors = errors
        self.params = params
        self.result = result

    def __repr__(self) -> str:
        return f"MethodInfo({self.name!r})"


METHODS: Final[dict[str, MethodInfo]] = {
`)
	tup := func(s []string) string {
		q := make([]string, len(s))
		for i, x := range s {
			q[i] = pyStr(x)
		}
		if len(q) == 1 {
			return "(" + q[0] + ",)"
		}
		return "(" + strings.Join(q, ", ") + ")"
	}
	vm := func(vs []ir.VersionedType) string {
		var parts []string
		for _, v := range vs {
			for _, ver := range v.Versions {
				parts = append(parts, fmt.Sprintf("%s: %s", pyStr(ver), pyStr(v.Type)))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	for _, me := range m.Methods {
		codes := make([]string, len(me.Errors))
		for i, c := range me.Errors {
			codes[i] = fmt.Sprint(c)
		}
		ct := "(" + strings.Join(codes, ", ") + ")"
		if len(codes) == 1 {
			ct = "(" + codes[0] + ",)"
		}
		fmt.Fprintf(b, "    %s: MethodInfo(\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n        %s,\n    ),\n",
			pyStr(me.Name), pyStr(me.Name), pyStr(me.Direction), pyStr(me.Kind), tup(me.Versions), pyStr(me.Feature), pyStr(me.Contribution), tup(me.Cancellable), tup(me.Progress), ct, vm(me.Params), vm(me.Result))
	}
	b.WriteString("}\n")
}
