package markdown

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Dir is where the Markdown reference is generated.
const Dir = "docs/reference/"

// Examples supplies valid vectors for the docs (type name -> JSON text); nil means none.
var Examples fs.FS

func emitMarkdown(m *ir.Model, out emit.Output) error {
	// index.md: methods, limits, errors.
	var b bytes.Buffer
	var pages []any
	for _, f := range m.Files {
		pages = append(pages, f.Stem, f.Title, f.Description)
	}
	b.WriteString(emit.MDHeader(emit.Fingerprint(true, m.Methods, m.Limits, m.Errors, pages)) + "\n")
	b.WriteString("# Octet wire reference\n\nGenerated from `schema/`; the schema is the authority. One page per schema file:\n\n")
	for _, f := range m.Files {
		if len(f.Types) > 0 {
			fmt.Fprintf(&b, "- [%s](%s.md) — %s\n", f.Title, f.Stem, emit.OneLine(f.Description))
		}
	}
	if m.Negotiation != nil {
		b.WriteString("- [Negotiation](negotiation.md) — which features each API version offers, what each needs, and the refusal messages\n")
	}
	b.WriteString("\n## Methods\n\n| method | direction | kind | versions | enabled by | cancellable | progress | errors | params | result |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, me := range m.Methods {
		en := me.Feature
		if me.Contribution != "" {
			en = "manifest `" + me.Contribution + "`"
		} else if en != "" {
			en = "feature `" + en + "`"
		}
		codes := []string{}
		for _, c := range me.Errors {
			codes = append(codes, fmt.Sprint(c))
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", me.Name, me.Direction, me.Kind, strings.Join(me.Versions, ", "), en,
			strings.Join(me.Cancellable, ", "), strings.Join(me.Progress, ", "), strings.Join(codes, ", "), mdVersioned(m, me.Params), mdVersioned(m, me.Result))
	}
	b.WriteString("\n### Method descriptions\n\n")
	for _, me := range m.Methods {
		fmt.Fprintf(&b, "- `%s`: %s\n", me.Name, me.Description)
	}
	b.WriteString("\n## Limits\n\n| name | value | unit | meaning |\n|---|---|---|---|\n")
	for _, l := range m.Limits {
		fmt.Fprintf(&b, "| `%s` | %d | %s | %s |\n", l.Name, l.Value, l.Unit, emit.OneLine(l.Description))
	}
	b.WriteString("\n## Error codes\n\n| code | name | category | retry may help | data | meaning |\n|---|---|---|---|---|---|\n")
	for _, e := range m.Errors {
		data := "absent"
		if e.Data != "" {
			data = typeLink(m, e.Data)
		}
		retry := e.Retryable
		if e.RetryHint != "" {
			retry += " (" + e.RetryHint + ")"
		}
		fmt.Fprintf(&b, "| %d | `%s` | %s | %s | %s | %s |\n", e.Code, e.Name, e.Category, retry, data, emit.OneLine(e.Meaning))
	}
	b.WriteString("\n### Message templates\n\nEvery SDK builds these messages from the registry's templates (`{placeholder}` replaced by its value), so the same fault reads the same in every language.\n\n| code | situation | template | data | meaning |\n|---|---|---|---|---|\n")
	for _, e := range m.Errors {
		for _, msg := range e.Messages {
			fmt.Fprintf(&b, "| %d | `%s` | `%s` | %s | %s |\n", e.Code, msg.Name, msg.Template, typeLink(m, msg.Data), emit.OneLine(msg.Meaning))
		}
	}
	out[Dir+"index.md"] = b.Bytes()
	for _, f := range m.Files {
		if len(f.Types) == 0 {
			continue
		}
		out[Dir+f.Stem+".md"] = mdFile(m, f)
	}
	return nil
}

func mdVersioned(m *ir.Model, vs []ir.VersionedType) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, strings.Join(v.Versions, ",")+": "+typeLink(m, v.Type))
	}
	return strings.Join(parts, "<br>")
}

func typeLink(m *ir.Model, name string) string {
	n := m.Lookup(name)
	if n == nil {
		return name
	}
	return fmt.Sprintf("[%s](%s.md#%s)", name, n.File.Stem, strings.ToLower(name))
}

func mdTypeText(m *ir.Model, t *ir.Type) string {
	if t.Ref != "" {
		return typeLink(m, t.Ref)
	}
	if len(t.OneOf) > 0 {
		var v []string
		for _, o := range t.OneOf {
			v = append(v, typeLink(m, o.Ref))
		}
		return "one of " + strings.Join(v, " \\| ")
	}
	var parts []string
	for _, k := range t.Kinds {
		s := string(k)
		if k == ir.Array && t.Items != nil {
			s = "array of " + mdTypeText(m, t.Items)
		}
		if k == ir.Object && t.Open {
			s = "object (open)"
		}
		parts = append(parts, s)
	}
	s := strings.Join(parts, " \\| ")
	if len(t.Kinds) == 0 {
		s = "any"
	}
	var c []string
	if t.Const != nil {
		c = append(c, fmt.Sprintf("const `%v`", t.Const))
	}
	if len(t.Enum) > 0 {
		c = append(c, "one of `"+strings.Join(t.Enum, "`, `")+"`")
	}
	for _, x := range []struct {
		k string
		v *int64
	}{{"minLength", t.MinLength}, {"maxLength", t.MaxLength}, {"min bytes", t.MinBytes}, {"max bytes", t.MaxBytes}, {"minItems", t.MinItems}, {"maxItems", t.MaxItems}} {
		if x.v != nil {
			c = append(c, fmt.Sprintf("%s %d", x.k, *x.v))
		}
	}
	if t.Minimum != nil {
		c = append(c, "≥ "+emit.Fnum(*t.Minimum))
	}
	if t.Maximum != nil {
		c = append(c, "≤ "+emit.Fnum(*t.Maximum))
	}
	if t.Pattern != "" {
		c = append(c, "pattern `"+strings.ReplaceAll(t.Pattern, "|", "\\|")+"`")
	}
	if t.Unique {
		c = append(c, "unique")
	}
	if t.Default != nil {
		c = append(c, fmt.Sprintf("default `%v`", t.Default))
	}
	if len(c) > 0 {
		s += " (" + strings.Join(c, ", ") + ")"
	}
	return s
}

func mdFile(m *ir.Model, f *ir.File) []byte {
	var b bytes.Buffer
	var ex []any
	for _, n := range f.Types {
		ex = append(ex, example(n.Name))
		for _, fl := range n.Type.Fields {
			if fl.Type.Description == "" && fl.Type.Ref != "" {
				ex = append(ex, m.Lookup(fl.Type.Ref).Type.Description) // shown as the field's description
			}
		}
	}
	b.WriteString(emit.MDHeader(emit.Fingerprint(true, f.Title, f.Description, f.Types, ex)) + "\n")
	fmt.Fprintf(&b, "# %s\n\n%s\n\nSource: `schema/%s`. [All files](index.md).\n", f.Title, f.Description, f.Path)
	for _, n := range f.Types {
		t := n.Type
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", n.Name, strings.TrimSpace(t.Description))
		switch {
		case t.Has(ir.Object) && !t.Open && len(t.OneOf) == 0:
			if len(t.Fields) == 0 {
				b.WriteString("An empty object; unknown fields are refused.\n")
				break
			}
			b.WriteString("| field | type | required | description |\n|---|---|---|---|\n")
			for _, fl := range t.Fields {
				req := "no"
				if fl.Required {
					req = "yes"
				}
				desc := fl.Type.Description
				if desc == "" && fl.Type.Ref != "" {
					desc = m.Lookup(fl.Type.Ref).Type.Description
				}
				fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", fl.Name, mdTypeText(m, fl.Type), req, strings.ReplaceAll(emit.OneLine(desc), "|", "\\|"))
			}
			b.WriteString("\nUnknown fields are refused.\n")
		default:
			fmt.Fprintf(&b, "Type: %s\n", mdTypeText(m, t))
		}
		if e := example(n.Name); e != "" {
			fmt.Fprintf(&b, "\nExample:\n\n```json\n%s\n```\n", strings.TrimSpace(e))
		}
	}
	return b.Bytes()
}

// example returns a valid vector of a type: the synthesized all-fields one (the richest), else
// the synthesized minimal one, else the first by name (synthesized files start "synth-").
func example(name string) string {
	if Examples == nil {
		return ""
	}
	for _, cand := range []string{"synth-all-fields", "synth-minimal"} {
		if b, err := fs.ReadFile(Examples, name+"/valid/"+cand+".json"); err == nil && len(b) < 2000 {
			return string(b)
		}
	}
	names, _ := fs.Glob(Examples, name+"/valid/*.json")
	sort.Strings(names)
	for _, p := range names {
		if b, err := fs.ReadFile(Examples, p); err == nil && len(b) < 2000 {
			return string(b)
		}
	}
	return ""
}
