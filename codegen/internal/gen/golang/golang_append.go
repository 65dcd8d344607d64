package golang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// goAppend emits AppendJSON for a closed object type: the bytes json.Marshal writes for the
// value (members in declaration order, the same omissions, fixups and escaping), without
// reflection for the members a host request is made of (strings, integers, booleans, raw
// JSON, nested closed objects, string arrays); anything else goes through encoding/json
// member by member. The host encodes the params it sends with it (one pass, no map, no
// reflection on the tool/call path); TestAppendJSONMatchesMarshal holds it to
// json.Marshal over every valid vector.
func goAppend(b *bytes.Buffer, m *ir.Model, n *ir.Named) {
	fmt.Fprintf(b, "// AppendJSON appends the JSON encoding of x to dst: the bytes json.Marshal writes, built\n// without reflection for scalar, raw and nested object members.\n")
	fmt.Fprintf(b, "func (x *%s) AppendJSON(dst []byte) ([]byte, error) {\n", n.Name)
	if len(n.Type.Fields) == 0 {
		b.WriteString("\treturn append(dst, \"{}\"...), nil\n}\n\n")
		return
	}
	var body strings.Builder
	for _, f := range n.Type.Fields {
		body.WriteString(goAppendField(m, f))
	}
	if strings.Contains(body.String(), "err != nil") {
		b.WriteString("\tvar err error\n")
	}
	b.WriteString("\tstart := len(dst)\n\tdst = append(dst, '{')\n")
	b.WriteString(body.String())
	b.WriteString("\treturn append(dst, '}'), nil\n}\n\n")
}

// fallible appends with call, which returns (dst, error).
func fallible(call string) string {
	return fmt.Sprintf("\tif dst, err = %s; err != nil {\n\t\treturn nil, err\n\t}\n", call)
}

// goAppendField returns the statements that append one member (its key, then its value).
func goAppendField(m *ir.Model, f *ir.Field) string {
	ft := m.Resolve(f.Type)
	gt := goType(m, f.Type, f.Required)
	x := "x." + emit.GoName(f.Name)
	key := fmt.Sprintf("\tdst = appendKey(dst, start, %q)\n", `"`+f.Name+`":`)
	// Constant members are always written (MarshalJSON fills them in the same way).
	if f.Required && f.Type.Ref == "" && ft.Const != nil {
		lit, err := json.Marshal(ft.Const)
		if err != nil {
			panic(err)
		}
		return key + fmt.Sprintf("\tdst = append(dst, %q...)\n", string(lit))
	}
	value := goAppendValue(m, f.Type, ft, gt, x, f.Required)
	if f.Required {
		return key + value
	}
	// Optional members carry omitzero: absent when nil (pointers, slices, raw JSON) or not
	// Present (OptionalNullable).
	cond := x + " != nil"
	if strings.HasPrefix(gt, "OptionalNullable[") {
		cond = x + ".Present"
	} else if !strings.HasPrefix(gt, "*") && !strings.HasPrefix(gt, "[]") && gt != "json.RawMessage" && !refToSliceOrMap(m, f.Type) {
		panic(fmt.Sprintf("go emitter: no omitzero rule for optional %s of Go type %s", f.Name, gt))
	}
	return fmt.Sprintf("\tif %s {\n%s%s\t}\n", cond, key, value)
}

func refToSliceOrMap(m *ir.Model, t *ir.Type) bool {
	if t.Ref == "" {
		return false
	}
	rt := m.Resolve(t)
	return len(rt.Kinds) == 1 && (rt.Kinds[0] == ir.Array || rt.Kinds[0] == ir.Object) && len(rt.OneOf) == 0 && !(rt.Kinds[0] == ir.Object && !rt.Open)
}

// goAppendValue returns the statements that append the value of x (Go type gt).
func goAppendValue(m *ir.Model, t, rt *ir.Type, gt, x string, required bool) string {
	deref := x
	if strings.HasPrefix(gt, "*") {
		deref = "*" + x
	}
	closed := rt.Has(ir.Object) && !rt.Open && len(rt.OneOf) == 0 && !multiKind(rt)
	switch {
	case closed && t.Ref != "":
		return fallible(x + ".AppendJSON(dst)")
	case len(rt.Kinds) == 1 && rt.Kinds[0] == ir.String && len(rt.OneOf) == 0:
		return fmt.Sprintf("\tdst = appendString(dst, string(%s))\n", deref)
	case len(rt.Kinds) == 1 && rt.Kinds[0] == ir.Integer:
		return fmt.Sprintf("\tdst = appendInt(dst, int64(%s))\n", deref)
	case len(rt.Kinds) == 1 && rt.Kinds[0] == ir.Boolean:
		return fmt.Sprintf("\tdst = appendBool(dst, bool(%s))\n", deref)
	case len(rt.Kinds) == 1 && rt.Kinds[0] == ir.Object && rt.Open:
		// An open object is raw JSON; a required one that was never set is {} (as MarshalJSON).
		if required {
			return fmt.Sprintf("\tif %s == nil {\n\t\tdst = append(dst, \"{}\"...)\n\t} else if dst, err = appendRaw(dst, %s); err != nil {\n\t\treturn nil, err\n\t}\n", x, x)
		}
		return fallible("appendRaw(dst, " + x + ")")
	case len(rt.Kinds) == 1 && rt.Kinds[0] == ir.Array:
		var b strings.Builder
		open := ""
		if required {
			// Required arrays are written [] when nil, never null.
			fmt.Fprintf(&b, "\tif %s == nil {\n\t\tdst = append(dst, \"[]\"...)\n\t} else {\n", x)
			open = "\t}\n"
		}
		it := m.Resolve(rt.Items)
		if len(it.Kinds) == 1 && it.Kinds[0] == ir.String && len(it.OneOf) == 0 && it.Const == nil {
			fmt.Fprintf(&b, "\tdst = append(dst, '[')\n\tfor i, s := range %s {\n\t\tif i > 0 {\n\t\t\tdst = append(dst, ',')\n\t\t}\n\t\tdst = appendString(dst, string(s))\n\t}\n\tdst = append(dst, ']')\n", x)
			b.WriteString(open)
			return b.String()
		}
		b.WriteString(fallible("appendMarshal(dst, " + x + ")"))
		b.WriteString(open)
		return b.String()
	}
	// Unions, several kinds, nullable values, numbers, any JSON value: encoding/json.
	if len(rt.Kinds) == 0 && len(rt.OneOf) == 0 && required {
		// Any JSON value (raw): nil is null, as json.Marshal writes it.
		return fmt.Sprintf("\tif %s == nil {\n\t\tdst = append(dst, \"null\"...)\n\t} else if dst, err = appendRaw(dst, %s); err != nil {\n\t\treturn nil, err\n\t}\n", x, x)
	}
	if len(rt.Kinds) == 0 && len(rt.OneOf) == 0 {
		return fallible("appendRaw(dst, " + x + ")")
	}
	return fallible("appendMarshal(dst, " + x + ")")
}

// goUnionAppend gives a union the AppendJSON of its set variant and, when it is the params
// of an owner-bound method, a SetResourceOwner that sets the variant's.
func goUnionAppend(b *bytes.Buffer, m *ir.Model, n *ir.Named) {
	fmt.Fprintf(b, "// AppendJSON appends the JSON encoding of the set variant to dst (see the variants' AppendJSON).\nfunc (u *%s) AppendJSON(dst []byte) ([]byte, error) {\n\tswitch {\n", n.Name)
	for _, v := range n.Type.OneOf {
		fmt.Fprintf(b, "\tcase u.%s != nil:\n\t\treturn u.%s.AppendJSON(dst)\n", v.Ref, v.Ref)
	}
	fmt.Fprintf(b, "\t}\n\treturn nil, &json.UnsupportedValueError{Str: %q}\n}\n\n", n.Name+" has no variant set")
	if !ownerBoundParams(m)[n.Name] {
		return
	}
	fmt.Fprintf(b, "// SetResourceOwner sets resource_owner on the set variant: the host binds an owner-bound call to its caller.\nfunc (u *%s) SetResourceOwner(o *ResourceOwner) {\n\tswitch {\n", n.Name)
	for _, v := range n.Type.OneOf {
		fmt.Fprintf(b, "\tcase u.%s != nil:\n\t\tu.%s.SetResourceOwner(o)\n", v.Ref, v.Ref)
	}
	b.WriteString("\t}\n}\n\n")
}

// goOwnerSetter gives the params type of every owner-bound method the host sends a
// SetResourceOwner, so the host binds the caller's owner on the typed params it is about
// to encode (methods.json owner_bound; the linter holds that such params carry
// resource_owner).
func goOwnerSetter(b *bytes.Buffer, m *ir.Model, n *ir.Named) {
	if !ownerBoundParams(m)[n.Name] {
		return
	}
	for _, f := range n.Type.Fields {
		if f.Name == "resource_owner" && !f.Required && f.Type.Ref != "" {
			fmt.Fprintf(b, "// SetResourceOwner sets resource_owner: the host binds an owner-bound call to its caller.\nfunc (x *%s) SetResourceOwner(o *%s) { x.ResourceOwner = o }\n\n", n.Name, f.Type.Ref)
			return
		}
	}
}

// ownerBoundParams names the params types of the owner-bound methods an extension receives.
func ownerBoundParams(m *ir.Model) map[string]bool {
	names := map[string]bool{}
	for _, me := range m.Methods {
		if !me.OwnerBound || me.Direction == "extension_to_host" {
			continue
		}
		for _, p := range me.Params {
			names[p.Type] = true
			if t := m.Lookup(p.Type); t != nil {
				for _, v := range t.Type.OneOf {
					names[v.Ref] = true // a union's variants each carry resource_owner
				}
			}
		}
	}
	return names
}
