package golang

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// goTypeFiles emits, per schema file, <stem>_gen.go (types) and <stem>_validate_gen.go
// (validators), plus methods_gen.go and validators_gen.go (the name -> validator table).
func goTypeFiles(m *ir.Model) map[string]string {
	files := map[string]string{}
	var all, seqs []string
	for _, f := range m.Files {
		if len(f.Types) == 0 {
			continue
		}
		stem := strings.ReplaceAll(f.Stem, "-", "_")
		files[stem+"_types_gen.go"] = goTypes(m, f)
		src, fileSeqs := goValidators(m, f)
		files[stem+"_validate_gen.go"] = src
		seqs = append(seqs, fileSeqs...)
		for _, n := range f.Types {
			all = append(all, n.Name)
		}
	}
	sort.Strings(all)
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(false, m.Types)))
	// Slices of constants and of addresses are laid out by the linker: no code runs at init.
	b.WriteString("\npackage protocol\n\n// typeNames lists every schema type name Validate knows, sorted.\nvar typeNames = []string{\n")
	for _, n := range all {
		fmt.Fprintf(&b, "\t%q,\n", n)
	}
	b.WriteString("}\n\n// seqPatterns lists every pattern matched without the regexp engine, for the test that\n// compares each with regexp.\nvar seqPatterns = []*seqPattern{\n")
	sort.Strings(seqs)
	for _, n := range seqs {
		fmt.Fprintf(&b, "\t&%s,\n", n)
	}
	b.WriteString("}\n\n// dispatch calls the validator of a type directly (no function values, so the error\n// collector stays on the caller's stack); false when the name is unknown.\nfunc dispatch(name string, v any, e *verrs) bool {\n\tswitch name {\n")
	for _, n := range all {
		fmt.Fprintf(&b, "\tcase %q:\n\t\tvalidate%s(v, nil, e)\n", n, n)
	}
	b.WriteString("\tdefault:\n\t\treturn false\n\t}\n\treturn true\n}\n")
	b.WriteString("\n// dispatchFromHost is dispatch for only the types an extension receives: the params of the\n// methods the host sends and the results of the requests the extension sends. An SDK that\n// validates through it (ValidateFromHost) links only their validators, not the host's\n// (issue 17: a third of the validators' code in every extension binary).\nfunc dispatchFromHost(name string, v any, e *verrs) bool {\n\tswitch name {\n")
	for _, n := range fromHostTypes(m) {
		fmt.Fprintf(&b, "\tcase %q:\n\t\tvalidate%s(v, nil, e)\n", n, n)
	}
	b.WriteString("\tdefault:\n\t\treturn false\n\t}\n\treturn true\n}\n")
	b.WriteString("\n// NewMessage returns a new zero value of the Go type generated for a schema object, union or\n// enum type, ready for Unmarshal; false for other names.\nfunc NewMessage(name string) (Validated, bool) {\n\tswitch name {\n")
	for _, name := range all {
		t := m.Lookup(name).Type
		if (t.Has(ir.Object) && !t.Open) || len(t.OneOf) > 0 || len(t.Enum) > 0 {
			fmt.Fprintf(&b, "\tcase %q:\n\t\treturn new(%s), true\n", name, name)
		}
	}
	b.WriteString("\t}\n\treturn nil, false\n}\n")
	files["validators_gen.go"] = b.String()
	files["methods_gen.go"] = goMethods(m)
	return files
}

// goType returns the Go type of a field or item.
func goType(m *ir.Model, t *ir.Type, required bool) string {
	ptr := ""
	if !required {
		ptr = "*"
	}
	if t.Ref != "" {
		rt := m.Resolve(t)
		if rt.Has(ir.Object) && !rt.Open || len(rt.OneOf) > 0 || multiKind(rt) {
			return ptr + t.Ref
		}
		if len(rt.Kinds) == 1 && (rt.Kinds[0] == ir.Array || rt.Kinds[0] == ir.Object) {
			return t.Ref // slices and maps: nil is absent
		}
		if rt.Nullable() {
			if !required {
				return "OptionalNullable[" + t.Ref + "]"
			}
			return "Nullable[" + t.Ref + "]"
		}
		return ptr + t.Ref
	}
	if len(t.Kinds) == 0 {
		return "json.RawMessage"
	}
	base := ""
	switch t.NonNull() {
	case ir.String:
		base = "string"
	case ir.Integer:
		base = "int64"
	case ir.Number:
		base = "float64"
	case ir.Boolean:
		base = "bool"
	case ir.Array:
		return "[]" + goType(m, t.Items, true)
	case ir.Object:
		// An open object (additionalProperties: true, no properties) is kept as the bytes
		// sent: the schema says nothing of its members, so Go code that reads one decodes it
		// itself, and code that forwards one (a tool's arguments, schemas, structured
		// content) sends exactly what it got, once. A map[string]any would turn every number
		// into a float64 and re-encode it (1.0 sent as 1, which a tool's integer schema
		// would then accept). The validators still judge the value: Unmarshal validates the
		// whole document before encoding/json keeps the raw member.
		return "json.RawMessage"
	}
	if t.Nullable() {
		// A pointer cannot tell absent from null (encoding/json sets it to nil for both).
		if !required {
			return "OptionalNullable[" + base + "]"
		}
		return "Nullable[" + base + "]"
	}
	return ptr + base
}

func multiKind(t *ir.Type) bool {
	n := 0
	for _, k := range t.Kinds {
		if k != ir.Null {
			n++
		}
	}
	return n > 1
}

func goTypes(m *ir.Model, f *ir.File) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, f.Types)))
	fmt.Fprintf(&b, "\npackage protocol\n\nimport \"encoding/json\"\n\nvar _ json.RawMessage\n\n")
	for _, n := range f.Types {
		t := n.Type
		desc := t.Description
		if desc == "" {
			desc = "is defined in schema/" + f.Path + "."
		}
		goComment(&b, "", n.Name+": "+desc)
		switch {
		case len(t.OneOf) > 0:
			goUnion(&b, m, n)
		case multiKind(t):
			goMultiKind(&b, n)
		case t.Has(ir.Object) && !t.Open:
			goStruct(&b, m, n)
		case len(t.Enum) > 0:
			fmt.Fprintf(&b, "type %s string\n\nconst (\n", n.Name)
			for _, v := range t.Enum {
				fmt.Fprintf(&b, "\t%s%s %s = %q\n", n.Name, emit.GoName(v), n.Name, v)
			}
			b.WriteString(")\n\n")
			fmt.Fprintf(&b, "func (*%s) validateDoc(doc any, p *vpath, e *verrs) { validate%s(doc, p, e) }\n\n", n.Name, n.Name)
		default:
			fmt.Fprintf(&b, "type %s = %s\n\n", n.Name, goType(m, t, true))
		}
	}
	return b.String()
}

func goStruct(b *bytes.Buffer, m *ir.Model, n *ir.Named) {
	t := n.Type
	fmt.Fprintf(b, "type %s struct {\n", n.Name)
	var fixups []string
	for _, f := range t.Fields {
		ft := m.Resolve(f.Type)
		if f.Type.Description != "" {
			goComment(b, "\t", f.Type.Description)
		}
		tag := f.Name
		if !f.Required {
			tag += ",omitzero"
		}
		gt := goType(m, f.Type, f.Required)
		fmt.Fprintf(b, "\t%s %s `json:%q`\n", emit.GoName(f.Name), gt, tag)
		if f.Required && strings.HasPrefix(gt, "[]") {
			fixups = append(fixups, fmt.Sprintf("if a.%s == nil { a.%s = %s{} }", emit.GoName(f.Name), emit.GoName(f.Name), gt))
		}
		if f.Required && gt == "json.RawMessage" && ft.Has(ir.Object) {
			fixups = append(fixups, fmt.Sprintf("if a.%s == nil { a.%s = json.RawMessage(\"{}\") }", emit.GoName(f.Name), emit.GoName(f.Name)))
		}
		if c, ok := ft.Const.(string); ok && f.Required && f.Type.Ref == "" {
			fixups = append(fixups, fmt.Sprintf("a.%s = %q", emit.GoName(f.Name), c))
		}
		if c, ok := ft.Const.(int64); ok && f.Required && f.Type.Ref == "" {
			fixups = append(fixups, fmt.Sprintf("a.%s = %d", emit.GoName(f.Name), c))
		}
		if c, ok := ft.Const.(bool); ok && f.Required && f.Type.Ref == "" {
			fixups = append(fixups, fmt.Sprintf("a.%s = %v", emit.GoName(f.Name), c))
		}
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "func (*%s) validateDoc(doc any, p *vpath, e *verrs) { validate%s(doc, p, e) }\n\n", n.Name, n.Name)
	goAppend(b, m, n)
	goOwnerSetter(b, m, n)
	if len(fixups) > 0 {
		// Required arrays marshal as [] (never null) and constant members are always written.
		fmt.Fprintf(b, "// MarshalJSON writes required arrays as [] (never null) and fills constant members.\nfunc (x %s) MarshalJSON() ([]byte, error) {\n\ttype plain %s\n\ta := plain(x)\n", n.Name, n.Name)
		for _, f := range fixups {
			fmt.Fprintf(b, "\t%s\n", f)
		}
		b.WriteString("\treturn json.Marshal(a)\n}\n\n")
	}
}

func goUnion(b *bytes.Buffer, m *ir.Model, n *ir.Named) {
	t := n.Type
	fmt.Fprintf(b, "// Exactly one variant is set.\ntype %s struct {\n", n.Name)
	for _, v := range t.OneOf {
		fmt.Fprintf(b, "\t%s *%s\n", v.Ref, v.Ref)
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "func (*%s) validateDoc(doc any, p *vpath, e *verrs) { validate%s(doc, p, e) }\n\n", n.Name, n.Name)
	fmt.Fprintf(b, "func (u %s) MarshalJSON() ([]byte, error) {\n", n.Name)
	for _, v := range t.OneOf {
		fmt.Fprintf(b, "\tif u.%s != nil {\n\t\treturn json.Marshal(u.%s)\n\t}\n", v.Ref, v.Ref)
	}
	fmt.Fprintf(b, "\treturn nil, &json.UnsupportedValueError{Str: %q}\n}\n\n", n.Name+" has no variant set")
	goUnionAppend(b, m, n)
	fmt.Fprintf(b, "// UnmarshalJSON dispatches on the discriminator, never by trying variants in turn.\nfunc (u *%s) UnmarshalJSON(data []byte) error {\n\tm, err := peek(data)\n\tif err != nil {\n\t\treturn err\n\t}\n\t*u = %s{}\n", n.Name, n.Name)
	d := t.Disc
	if d.Property != "" {
		fmt.Fprintf(b, "\tswitch rawString(m[%q]) {\n", d.Property)
		for i, v := range t.OneOf {
			fmt.Fprintf(b, "\tcase %q:\n\t\tu.%s = new(%s)\n\t\treturn json.Unmarshal(data, u.%s)\n", d.Values[i], v.Ref, v.Ref, v.Ref)
		}
		fmt.Fprintf(b, "\t}\n\treturn &json.UnsupportedValueError{Str: %q}\n}\n\n", n.Name+": unknown "+d.Property)
		return
	}
	fallback := ""
	for i, v := range t.OneOf {
		if d.Keys[i] == "" {
			fallback = v.Ref
			continue
		}
		fmt.Fprintf(b, "\tif _, ok := m[%q]; ok {\n\t\tu.%s = new(%s)\n\t\treturn json.Unmarshal(data, u.%s)\n\t}\n", d.Keys[i], v.Ref, v.Ref, v.Ref)
	}
	if fallback != "" {
		fmt.Fprintf(b, "\tu.%s = new(%s)\n\treturn json.Unmarshal(data, u.%s)\n}\n\n", fallback, fallback, fallback)
	} else {
		fmt.Fprintf(b, "\treturn &json.UnsupportedValueError{Str: %q}\n}\n\n", n.Name+": no variant key present")
	}
}

func goMultiKind(b *bytes.Buffer, n *ir.Named) {
	fmt.Fprintf(b, "// Exactly one member is set.\ntype %s struct {\n", n.Name)
	var kinds []ir.Kind
	for _, k := range n.Type.Kinds {
		gt := map[ir.Kind]string{ir.String: "string", ir.Integer: "int64", ir.Number: "float64", ir.Boolean: "bool"}[k]
		if gt == "" {
			continue
		}
		kinds = append(kinds, k)
		fmt.Fprintf(b, "\t%s *%s\n", emit.GoName(string(k)), gt)
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "func (x %s) MarshalJSON() ([]byte, error) {\n", n.Name)
	for _, k := range kinds {
		fmt.Fprintf(b, "\tif x.%s != nil {\n\t\treturn json.Marshal(*x.%s)\n\t}\n", emit.GoName(string(k)), emit.GoName(string(k)))
	}
	fmt.Fprintf(b, "\treturn nil, &json.UnsupportedValueError{Str: %q}\n}\n\n", n.Name+" is empty")
	fmt.Fprintf(b, "func (x *%s) UnmarshalJSON(data []byte) error {\n\t*x = %s{}\n", n.Name, n.Name)
	for _, k := range kinds {
		gt := map[ir.Kind]string{ir.String: "string", ir.Integer: "int64", ir.Number: "float64", ir.Boolean: "bool"}[k]
		lv := "as" + emit.GoName(string(k))
		fmt.Fprintf(b, "\tvar %s %s\n\tif json.Unmarshal(data, &%s) == nil {\n\t\tx.%s = &%s\n\t\treturn nil\n\t}\n", lv, gt, lv, emit.GoName(string(k)), lv)
	}
	fmt.Fprintf(b, "\treturn &json.UnsupportedValueError{Str: %q}\n}\n\n", n.Name+": unexpected JSON kind")
}

func goMethods(m *ir.Model) string {
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, m.Methods)))
	b.WriteString(`
package protocol

// MethodInfo is one row of the method registry (schema/methods.json).
type MethodInfo struct {
	Name         string
	Direction    string // "host_to_extension", "extension_to_host" or "both"
	Kind         string // "request" or "notification"
	Versions     []string
	Feature      string // negotiated feature that enables it ("" = none)
	Contribution string // manifest contribution that enables it ("" = none)
	Cancellable  []string
	Progress     []string
	Errors       []int64
	Params       map[string]string // API version -> params type name
	Result       map[string]string // API version -> result type name (requests)
	Description  string
}

// Directions and kinds of a registry row (MethodInfo.Direction, MethodInfo.Kind).
const (
	DirectionHostToExtension = "host_to_extension"
	DirectionExtensionToHost = "extension_to_host"
	DirectionBoth            = "both"
	KindRequest              = "request"
	KindNotification         = "notification"
)

// Method names.
const (
`)
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "\tMethod%s = %q\n", emit.GoName(me.Name), me.Name)
	}
	b.WriteString(")\n\n// Methods is the registry, in schema order.\nvar Methods = []MethodInfo{\n")
	vm := func(vs []ir.VersionedType) string {
		var parts []string
		for _, v := range vs {
			for _, ver := range v.Versions {
				parts = append(parts, fmt.Sprintf("%q: %q", ver, v.Type))
			}
		}
		return "map[string]string{" + strings.Join(parts, ", ") + "}"
	}
	strs := func(s []string) string {
		q := make([]string, len(s))
		for i, x := range s {
			q[i] = strconv.Quote(x)
		}
		return "[]string{" + strings.Join(q, ", ") + "}"
	}
	for _, me := range m.Methods {
		codes := make([]string, len(me.Errors))
		for i, c := range me.Errors {
			codes[i] = strconv.FormatInt(c, 10)
		}
		fmt.Fprintf(&b, "\t{\n\t\tName: %q, Direction: %q, Kind: %q, Versions: %s,\n\t\tFeature: %q, Contribution: %q, Cancellable: %s, Progress: %s,\n\t\tErrors: []int64{%s},\n\t\tParams: %s,\n\t\tResult: %s,\n\t\tDescription: %q,\n\t},\n",
			me.Name, me.Direction, me.Kind, strs(me.Versions), me.Feature, me.Contribution, strs(me.Cancellable), strs(me.Progress), strings.Join(codes, ", "), vm(me.Params), vm(me.Result), me.Description)
	}
	b.WriteString("}\n\n// LookupMethod returns the registry row of a method.\nfunc LookupMethod(name string) (MethodInfo, bool) {\n\tfor _, m := range Methods {\n\t\tif m.Name == name {\n\t\t\treturn m, true\n\t\t}\n\t}\n\treturn MethodInfo{}, false\n}\n")
	return b.String()
}

// fromHostTypes lists, sorted, the named types an extension receives: params of methods
// sent host to extension (or both ways) and results of requests sent extension to host
// (or both ways).
func fromHostTypes(m *ir.Model) []string {
	set := map[string]bool{}
	for _, meth := range m.Methods {
		if meth.Direction != "extension_to_host" {
			for _, vt := range meth.Params {
				set[vt.Type] = true
			}
		}
		if meth.Direction != "host_to_extension" {
			for _, vt := range meth.Result {
				set[vt.Type] = true
			}
		}
	}
	names := make([]string, 0, len(set))
	for n := range set {
		if n != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
