package typescript

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// tsTypeFiles emits one <stem>.ts per schema file (types, isX/validateX and the
// low-level checkX used across files) and validate.ts (lookup by type name).
func tsTypeFiles(m *ir.Model) map[string]string {
	files := map[string]string{}
	var all []*ir.Named
	for _, f := range m.Files {
		if len(f.Types) == 0 {
			continue
		}
		files[f.Stem+".types.ts"], files[f.Stem+".check.ts"] = tsFile(m, f)
		all = append(all, f.Types...)
	}
	files["validate.ts"] = tsValidateIndex(m, all)
	return files
}

func tsType(m *ir.Model, t *ir.Type) string {
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
			return tsStr(c)
		default:
			return fmt.Sprint(c)
		}
	}
	if len(t.Enum) > 0 {
		q := make([]string, len(t.Enum))
		for i, e := range t.Enum {
			q[i] = tsStr(e)
		}
		return strings.Join(q, " | ")
	}
	if len(t.Kinds) == 0 {
		return "unknown"
	}
	var parts []string
	for _, k := range t.Kinds {
		switch k {
		case ir.String:
			parts = append(parts, "string")
		case ir.Integer, ir.Number:
			parts = append(parts, "number")
		case ir.Boolean:
			parts = append(parts, "boolean")
		case ir.Null:
			parts = append(parts, "null")
		case ir.Array:
			parts = append(parts, "Array<"+tsType(m, t.Items)+">")
		case ir.Object:
			parts = append(parts, "Record<string, unknown>")
		}
	}
	return strings.Join(parts, " | ")
}

// tsFile returns <stem>.types.ts (interfaces and aliases, with the schema's descriptions) and
// <stem>.check.ts (the checkX functions validate.ts and other check files call; no
// descriptions, so a description edit never touches it).
func tsFile(m *ir.Model, f *ir.File) (types, checks string) {
	var tb, cb bytes.Buffer
	g := &tsVal{m: m, b: &cb, regexps: map[string]string{}, refs: map[string]bool{}}
	typeRefs := &tsVal{refs: map[string]bool{}}
	for _, n := range f.Types {
		t := n.Type
		tsDoc(&tb, "", n.Name+": "+t.Description)
		if t.Has(ir.Object) && !t.Open && len(t.OneOf) == 0 {
			fmt.Fprintf(&tb, "export interface %s {\n", n.Name)
			for _, fl := range t.Fields {
				if fl.Type.Description != "" {
					tsDoc(&tb, "  ", fl.Type.Description)
				}
				opt := ""
				if !fl.Required {
					opt = "?"
				}
				fmt.Fprintf(&tb, "  %s%s: %s;\n", fl.Name, opt, tsType(m, fl.Type))
				typeRefs.noteRefs(fl.Type)
			}
			tb.WriteString("}\n\n")
		} else {
			fmt.Fprintf(&tb, "export type %s = %s;\n\n", n.Name, tsType(m, t))
			typeRefs.noteRefs(t)
		}
		// Only checkX: validate.ts's validate(typeName) is the entry point. Per-type validateX and
		// isX wrappers were a quarter of the checks' source, which Node compiles on every start
		// (bench/analysis/sdk-bounds.md), and nothing called them.
		fmt.Fprintf(&cb, "/** @internal */\nexport function check%s(v: unknown, p: string, e: string[], c: Ctx, o: object | undefined, k: string | number | undefined): void {\n", n.Name)
		g.check(n.Type, "v", "${p}", "o", "k", 0, "  ")
		cb.WriteString("  void c; void o; void k;\n}\n\n")
	}
	// Types file.
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(true, f.Title, f.Description, f.Types)))
	fmt.Fprintf(&b, "// %s (schema/%s): %s\n", f.Title, f.Path, emit.OneLine(f.Description))
	for _, line := range importLines(m, f, typeRefs.refs, ".types.js", "import type") {
		b.WriteString(line)
	}
	b.WriteString("\n")
	b.WriteString(tb.String())
	types = strings.TrimRight(b.String(), "\n") + "\n"

	// Checks file.
	var c bytes.Buffer
	c.WriteString(emit.Header("//", emit.Fingerprint(false, f.Types)))
	fmt.Fprintf(&c, "// Validators of schema/%s.\n", f.Path)
	runtimeNames := []string{"cpLen", "has", "hasDuplicate", "isInt", "isObj", "kindOf", "plainCtx", "utf8Len", "wantBoolean", "wantInt", "wantNumber", "wantObject", "wantString"}
	var used []string
	src := cb.String()
	for _, r := range runtimeNames {
		if strings.Contains(src, r+"(") {
			used = append(used, r)
		}
	}
	fmt.Fprintf(&c, "import type { Ctx } from \"../strictjson.js\";\nimport { %s } from \"../strictjson.js\";\n", strings.Join(used, ", "))
	checkRefs := map[string]bool{}
	for name := range g.refs {
		if strings.Contains(src, "check"+name+"(") {
			checkRefs[name] = true
		}
	}
	for _, line := range importLines(m, f, checkRefs, ".check.js", "import") {
		c.WriteString(line)
	}
	c.WriteString("\n")
	for _, pat := range g.order {
		fmt.Fprintf(&c, "const %s = new RegExp(%s, \"u\");\n", g.regexps[pat], tsStr(pat))
	}
	if len(g.order) > 0 {
		c.WriteString("\n")
	}
	c.WriteString(src)
	checks = strings.TrimRight(c.String(), "\n") + "\n"
	return types, checks
}

// importLines imports names defined in other schema files, one statement per file, sorted.
// For check files the imported names are the check functions.
func importLines(m *ir.Model, f *ir.File, names map[string]bool, suffix, kw string) []string {
	byFile := map[string][]string{}
	for name := range names {
		n := m.Lookup(name)
		if n.File == f {
			continue
		}
		if suffix == ".check.js" {
			name = "check" + name
		}
		byFile[n.File.Stem] = append(byFile[n.File.Stem], name)
	}
	var stems []string
	for s := range byFile {
		stems = append(stems, s)
	}
	sort.Strings(stems)
	var out []string
	for _, s := range stems {
		list := byFile[s]
		sort.Strings(list)
		out = append(out, fmt.Sprintf("%s { %s } from \"./%s%s\";\n", kw, strings.Join(list, ", "), s, suffix))
	}
	return out
}

func tsValidateIndex(m *ir.Model, all []*ir.Named) string {
	var b bytes.Buffer
	names := make([]string, len(all))
	for i, n := range all {
		names[i] = n.Name
	}
	sort.Strings(names)
	b.WriteString(emit.Header("//", emit.Fingerprint(false, names)))
	b.WriteString("// Validation by schema type name.\nimport type { Ctx } from \"../strictjson.js\";\nimport { parseStrictWithContext, plainCtx, StrictJSONError } from \"../strictjson.js\";\n")
	byFile := map[string][]string{}
	for _, n := range all {
		byFile[n.File.Stem] = append(byFile[n.File.Stem], "check"+n.Name)
	}
	var stems []string
	for s := range byFile {
		stems = append(stems, s)
	}
	sort.Strings(stems)
	for _, s := range stems {
		fs := byFile[s]
		sort.Strings(fs)
		fmt.Fprintf(&b, "import {\n  %s,\n} from \"./%s.check.js\";\n", strings.Join(fs, ",\n  "), s)
	}
	b.WriteString("\ntype Check = (v: unknown, p: string, e: string[], c: Ctx, o: object | undefined, k: string | number | undefined) => void;\n\nconst checks: Readonly<Record<string, Check>> = {\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %s: check%s,\n", n, n)
	}
	b.WriteString(`};

/** Every schema type name validate knows. */
export const SCHEMA_TYPE_NAMES: readonly string[] = Object.keys(checks);

/** Checks an already-parsed value against a schema type (use checkJSON for wire text). */
export function validate(typeName: string, v: unknown, ctx: Ctx = plainCtx()): string[] {
  const check = checks[typeName];
  if (check === undefined) throw new Error("no schema type " + typeName);
  const e: string[] = [];
  check(v, "$", e, ctx, undefined, undefined);
  return e;
}

/**
 * Parses wire text strictly and checks it against a schema type: duplicate keys, lone
 * surrogates and integers written as 1.0 are refused exactly as in Go and Python.
 */
export function checkJSON(typeName: string, text: string): string[] {
  let parsed: ReturnType<typeof parseStrictWithContext>;
  try {
    parsed = parseStrictWithContext(text);
  } catch (err) {
    if (err instanceof StrictJSONError) return ["$: " + err.message];
    throw err;
  }
  return validate(typeName, parsed.value, parsed.ctx);
}
`)
	return b.String()
}

type tsVal struct {
	m       *ir.Model
	b       *bytes.Buffer
	regexps map[string]string
	order   []string
	refs    map[string]bool
}

func (g *tsVal) noteRefs(t *ir.Type) {
	if t == nil {
		return
	}
	if t.Ref != "" {
		g.refs[t.Ref] = true
	}
	for _, v := range t.OneOf {
		g.refs[v.Ref] = true
	}
	g.noteRefs(t.Items)
	for _, f := range t.Fields {
		g.noteRefs(f.Type)
	}
}

func (g *tsVal) w(ind, format string, a ...any) { fmt.Fprintf(g.b, ind+format+"\n", a...) }

func (g *tsVal) re(pat string) string {
	if n, ok := g.regexps[pat]; ok {
		return n
	}
	n := "re" + emit.Fingerprint(true, pat)[:8]
	g.regexps[pat] = n
	g.order = append(g.order, pat)
	return n
}

// tsMsg builds a template-literal error message at path expression p.
// Paths are template-literal bodies ("${p}.items[${i0}]"), so nesting never nests templates.
func tsMsg(p, msg string) string {
	return "`" + p + ": " + strings.ReplaceAll(strings.ReplaceAll(msg, "`", "'"), "${", "$ {") + "`"
}

// pexpr turns a path body into an expression.
func pexpr(p string) string {
	if p == "${p}" {
		return "p"
	}
	return "`" + p + "`"
}

func (g *tsVal) check(t *ir.Type, v, p, o, k string, d int, ind string) {
	if t.Ref != "" {
		g.refs[t.Ref] = true
		g.w(ind, "check%s(%s, %s, e, c, %s, %s);", t.Ref, v, pexpr(p), o, k)
		return
	}
	if len(t.OneOf) > 0 {
		g.union(t, v, p, o, k, ind)
		return
	}
	if len(t.Kinds) == 0 && t.Const == nil {
		return
	}
	if h := emit.LeafHelper(t); h != "" {
		if h == "wantInt" {
			g.w(ind, "wantInt(%s, %s, e, c, %s, %s);", v, pexpr(p), o, k)
		} else {
			g.w(ind, "%s(%s, %s, e);", h, v, pexpr(p))
		}
		return
	}
	kinds := t.Kinds
	if len(kinds) == 0 {
		switch t.Const.(type) {
		case string:
			kinds = []ir.Kind{ir.String}
		case bool:
			kinds = []ir.Kind{ir.Boolean}
		case int64:
			kinds = []ir.Kind{ir.Integer}
		}
	}
	has := func(x ir.Kind) bool {
		for _, y := range kinds {
			if y == x {
				return true
			}
		}
		return false
	}
	kw := "if"
	branch := func(cond string) {
		g.w(ind, "%s (%s) {", kw, cond)
		kw = "} else if"
	}
	if has(ir.Null) {
		branch(v + " === null")
	}
	if has(ir.String) {
		branch("typeof " + v + " === \"string\"")
		g.str(t, v, p, ind+"  ")
	}
	if has(ir.Boolean) {
		branch("typeof " + v + " === \"boolean\"")
		if c, ok := t.Const.(bool); ok {
			g.w(ind+"  ", "if (%s !== %v) e.push(%s);", v, c, tsMsg(p, fmt.Sprintf("want %v", c)))
		}
	}
	if has(ir.Integer) {
		branch(fmt.Sprintf("typeof %s === \"number\" && isInt(%s, c, %s, %s)", v, v, o, k))
		g.num(t, v, p, ind+"  ")
	} else if has(ir.Number) {
		branch(fmt.Sprintf("typeof %s === \"number\"", v))
		g.num(t, v, p, ind+"  ")
	}
	if has(ir.Array) {
		branch("Array.isArray(" + v + ")")
		in := ind + "  "
		a := fmt.Sprintf("a%d", d)
		g.w(in, "const %s: unknown[] = %s;", a, v)
		if t.MinItems != nil {
			g.w(in, "if (%s.length < %d) e.push(%s);", a, *t.MinItems, tsMsg(p, fmt.Sprintf("want at least %d items", *t.MinItems)))
		}
		if t.MaxItems != nil {
			g.w(in, "if (%s.length > %d) e.push(%s);", a, *t.MaxItems, tsMsg(p, fmt.Sprintf("want at most %d items", *t.MaxItems)))
		}
		if t.Unique {
			g.w(in, "if (hasDuplicate(%s)) e.push(%s);", a, tsMsg(p, "items are not unique"))
		}
		i := fmt.Sprintf("i%d", d)
		g.w(in, "for (let %s = 0; %s < %s.length; %s++) {", i, i, a, i)
		it := fmt.Sprintf("it%d", d)
		g.w(in+"  ", "const %s = %s[%s];", it, a, i)
		g.check(t.Items, it, p+"[${"+i+"}]", a, i, d+1, in+"  ")
		g.w(in, "}")
	}
	if has(ir.Object) {
		branch("isObj(" + v + ")")
		if !t.Open {
			g.object(t, v, p, d, ind+"  ")
		}
	}
	g.w(ind, "} else {")
	var ks []string
	for _, x := range kinds {
		ks = append(ks, string(x))
	}
	g.w(ind+"  ", "e.push(`%s: want %s, got ${kindOf(%s)}`);", p, strings.Join(ks, " or "), v)
	g.w(ind, "}")
}

func (g *tsVal) str(t *ir.Type, v, p, ind string) {
	if c, ok := t.Const.(string); ok {
		g.w(ind, "if (%s !== %s) e.push(%s);", v, tsStr(c), tsMsg(p, "want "+strings.ReplaceAll(tsStr(c), "`", "'")))
	}
	if len(t.Enum) > 0 {
		q := make([]string, len(t.Enum))
		for i, e := range t.Enum {
			q[i] = tsStr(e)
		}
		g.w(ind, "switch (%s) {", v)
		for _, x := range q {
			g.w(ind+"  ", "case %s:", x)
		}
		g.w(ind+"    ", "break;")
		g.w(ind+"  ", "default:")
		g.w(ind+"    ", "e.push(%s);", tsMsg(p, "want one of "+strings.Join(t.Enum, ", ")))
		g.w(ind, "}")
	}
	if t.MinLength != nil || t.MaxLength != nil {
		g.w(ind, "if (%s) e.push(%s);", emit.LenCond("cpLen("+v+")", t.MinLength, t.MaxLength), tsMsg(p, "want "+emit.RangeText(t.MinLength, t.MaxLength)+" characters"))
	}
	if t.MinBytes != nil || t.MaxBytes != nil {
		g.w(ind, "if (%s) e.push(%s);", emit.LenCond("utf8Len("+v+")", t.MinBytes, t.MaxBytes), tsMsg(p, "want "+emit.RangeText(t.MinBytes, t.MaxBytes)+" UTF-8 bytes"))
	}
	if t.Pattern != "" {
		g.w(ind, "if (!%s.test(%s)) e.push(%s);", g.re(t.Pattern), v, tsMsg(p, "does not match "+strings.ReplaceAll(t.Pattern, "\\", "\\\\")))
	}
}

func (g *tsVal) num(t *ir.Type, v, p, ind string) {
	if c, ok := t.Const.(int64); ok {
		g.w(ind, "if (%s !== %d) e.push(%s);", v, c, tsMsg(p, fmt.Sprintf("want %d", c)))
	}
	if t.Minimum != nil {
		g.w(ind, "if (%s < %s) e.push(%s);", v, emit.Fnum(*t.Minimum), tsMsg(p, "want at least "+emit.Fnum(*t.Minimum)))
	}
	if t.Maximum != nil {
		g.w(ind, "if (%s > %s) e.push(%s);", v, emit.Fnum(*t.Maximum), tsMsg(p, "want at most "+emit.Fnum(*t.Maximum)))
	}
}

func (g *tsVal) object(t *ir.Type, v, p string, d int, ind string) {
	ob := fmt.Sprintf("o%d", d)
	g.w(ind, "const %s: Record<string, unknown> = %s;", ob, v)
	g.w(ind, "for (const key of Object.keys(%s)) {", ob)
	g.w(ind+"  ", "switch (key) {")
	for _, f := range t.Fields {
		g.w(ind+"    ", "case %s:", tsStr(f.Name))
	}
	if len(t.Fields) > 0 {
		g.w(ind+"      ", "break;")
	}
	g.w(ind+"    ", "default:")
	g.w(ind+"      ", "e.push(`%s: unknown field ${JSON.stringify(key)}`);", p)
	g.w(ind+"  ", "}")
	g.w(ind, "}")
	for _, f := range t.Fields {
		g.w(ind, "if (has(%s, %s)) {", ob, tsStr(f.Name))
		g.check(f.Type, fmt.Sprintf("%s[%s]", ob, tsStr(f.Name)), p+"."+f.Name, ob, tsStr(f.Name), d+1, ind+"  ")
		if f.Required {
			g.w(ind, "} else {")
			g.w(ind+"  ", "e.push(%s);", tsMsg(p, "missing required field "+f.Name))
		}
		g.w(ind, "}")
	}
}

func (g *tsVal) union(t *ir.Type, v, p, o, k, ind string) {
	for _, x := range t.OneOf {
		g.refs[x.Ref] = true
	}
	g.w(ind, "if (!isObj(%s)) {", v)
	g.w(ind+"  ", "e.push(`%s: want object, got ${kindOf(%s)}`);", p, v)
	g.w(ind+"  ", "return;")
	g.w(ind, "}")
	dd := t.Disc
	if dd.Property != "" {
		g.w(ind, "switch (%s[%s]) {", v, tsStr(dd.Property))
		for i, x := range t.OneOf {
			g.w(ind+"  ", "case %s:", tsStr(dd.Values[i]))
			g.w(ind+"    ", "check%s(%s, %s, e, c, %s, %s);", x.Ref, v, pexpr(p), o, k)
			g.w(ind+"    ", "return;")
		}
		g.w(ind+"  ", "default:")
		g.w(ind+"    ", "e.push(%s);", tsMsg(p, "member "+dd.Property+" must be one of "+strings.Join(dd.Values, ", ")))
		g.w(ind, "}")
		return
	}
	fallback := ""
	for i, x := range t.OneOf {
		if dd.Keys[i] == "" {
			fallback = x.Ref
			continue
		}
		g.w(ind, "if (has(%s, %s)) {", v, tsStr(dd.Keys[i]))
		g.w(ind+"  ", "check%s(%s, %s, e, c, %s, %s);", x.Ref, v, pexpr(p), o, k)
		g.w(ind+"  ", "return;")
		g.w(ind, "}")
	}
	if fallback != "" {
		g.w(ind, "check%s(%s, %s, e, c, %s, %s);", fallback, v, pexpr(p), o, k)
	} else {
		g.w(ind, "e.push(%s);", tsMsg(p, "want one of the members "+strings.Join(dd.Keys, ", ")))
	}
}
