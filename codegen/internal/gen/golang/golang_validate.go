package golang

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/gen/emit"
	"github.com/octet-kit/octet/codegen/internal/ir"
)

// goValidators emits one validate<Name> function per named type of a file: straight-line
// checks over the strictjson tree, no reflection and no schema walking at run time. It also
// returns the names of the file's seqPattern variables (validators_gen.go lists them for the
// test that compares each with regexp).
//
// Nothing it emits runs at package init (issue 17: every extension start paid for it): a
// seqPattern is a static value (its character sets are bitmasks computed here), and a
// pattern that needs the regexp engine is a lazyRegexp, compiled on its first match. The
// lint already compiled every pattern with Go's regexp, so a lazy compile cannot fail.
func goValidators(m *ir.Model, f *ir.File) (string, []string) {
	var body bytes.Buffer
	g := &goVal{m: m, b: &body, regexps: map[string]string{}, prefix: emit.GoName(f.Stem)}
	for _, n := range f.Types {
		fmt.Fprintf(&body, "func validate%s(v any, p *vpath, e *verrs) {\n", n.Name)
		g.check(n.Type, "v", "p", 0)
		body.WriteString("}\n\n")
	}
	var b bytes.Buffer
	b.WriteString(emit.Header("//", emit.Fingerprint(false, f.Types)))
	b.WriteString("\npackage protocol\n\n")
	imports := []string{}
	src := body.String()
	if strings.Contains(src, "json.") {
		imports = append(imports, `"encoding/json"`)
	}
	if strings.Contains(src, "utf8.") {
		imports = append(imports, `"unicode/utf8"`)
	}
	if len(imports) > 0 {
		fmt.Fprintf(&b, "import (\n\t%s\n)\n\n", strings.Join(imports, "\n\t"))
	}
	var seqs []string
	if len(g.order) > 0 {
		b.WriteString("var (\n")
		for _, pat := range g.order {
			if atoms, anchoredEnd, ok := seqAtoms(pat); ok {
				// A fixed sequence of classes: matched without the regexp engine (TestSeqPatterns
				// proves it equals regexp on every schema pattern).
				fmt.Fprintf(&b, "\t%s = seqPattern{src: %s, atoms: %s, anchoredEnd: %v}\n", g.regexps[pat], strconv.Quote(pat), atoms, anchoredEnd)
				seqs = append(seqs, g.regexps[pat])
				continue
			}
			fmt.Fprintf(&b, "\t%s = lazyRegexp{src: %s}\n", g.regexps[pat], strconv.Quote(pat))
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(src)
	return b.String(), seqs
}

type goVal struct {
	m       *ir.Model
	b       *bytes.Buffer
	regexps map[string]string
	order   []string
	prefix  string
}

func (g *goVal) re(pat string) string {
	if n, ok := g.regexps[pat]; ok {
		return n
	}
	// Names are per file; hash the pattern so they stay stable when other patterns change.
	n := "re" + g.prefix + emit.Fingerprint(true, pat)[:8]
	g.regexps[pat] = n
	g.order = append(g.order, pat)
	return n
}

func (g *goVal) w(format string, a ...any) { fmt.Fprintf(g.b, format+"\n", a...) }

// q quotes a message fragment for the generated source.
func q(s string) string { return strconv.Quote(s) }

// check emits statements validating expression v (type any) at path expression p. Every error
// goes through a non-variadic verrs method (validate.go), so the verdict-only mode never
// builds a message or boxes an argument.
func (g *goVal) check(t *ir.Type, v, p string, d int) {
	if t.Ref != "" {
		g.w("validate%s(%s, %s, e)", t.Ref, v, p)
		return
	}
	if len(t.OneOf) > 0 {
		g.union(t, v, p, d)
		return
	}
	if len(t.Kinds) == 0 && t.Const == nil && t.Enum == nil {
		g.w("_ = %s // any JSON value", v)
		return
	}
	if h := emit.LeafHelper(t); h != "" {
		g.w("%s(%s, %s, e)", h, v, p)
		return
	}
	g.w("switch x%d := %s.(type) {", d, v)
	if t.Has(ir.Null) {
		g.w("case nil:")
	}
	x := fmt.Sprintf("x%d", d)
	if t.Has(ir.String) || isStrConst(t) {
		g.w("case string:")
		g.str(t, x, p)
	}
	if t.Has(ir.Boolean) || isBoolConst(t) {
		g.w("case bool:")
		if c, ok := t.Const.(bool); ok {
			g.w("if %s != %v { e.msg(%s, %s) }", x, c, p, q(fmt.Sprintf("want %v", c)))
		}
	}
	if t.Has(ir.Integer) || t.Has(ir.Number) || isIntConst(t) {
		g.w("case json.Number:")
		if t.Has(ir.Integer) || isIntConst(t) {
			g.w("n, ok := asInt(%s)", x)
			g.w("if !ok { e.fail(%s, %s, %s); break }", p, q("an integer within ±(2^53-1) written without fraction or exponent"), x)
			g.num(t, "n", p, true)
		} else {
			g.w("n, ok := asNum(%s)", x)
			g.w("if !ok { e.fail(%s, \"number\", %s); break }", p, x)
			g.num(t, "n", p, false)
		}
	}
	if t.Has(ir.Array) {
		g.w("case []any:")
		if t.MinItems != nil {
			g.w("if len(%s) < %d { e.count(%s, %s, len(%s)) }", x, *t.MinItems, p, q(fmt.Sprintf("at least %d items", *t.MinItems)), x)
		}
		if t.MaxItems != nil {
			g.w("if len(%s) > %d { e.count(%s, %s, len(%s)) }", x, *t.MaxItems, p, q(fmt.Sprintf("at most %d items", *t.MaxItems)), x)
		}
		if t.Unique {
			g.w("if i, j, dup := duplicate(%s); dup { e.dup(%s, i, j) }", x, p)
		}
		g.w("for i%d, it%d := range %s {", d, d, x)
		g.w("ip%d := vpath{up: %s, idx: i%d}", d, p, d)
		g.check(t.Items, fmt.Sprintf("it%d", d), fmt.Sprintf("&ip%d", d), d+1)
		g.w("}")
	}
	if t.Has(ir.Object) {
		g.w("case map[string]any:")
		if !t.Open {
			g.object(t, x, p, d)
		}
	}
	g.w("default:")
	g.w("_ = %s", x)
	g.w("e.fail(%s, %s, %s)", p, q(kindsText(t)), v)
	g.w("}")
}

func isStrConst(t *ir.Type) bool  { _, ok := t.Const.(string); return ok && len(t.Kinds) == 0 }
func isBoolConst(t *ir.Type) bool { _, ok := t.Const.(bool); return ok && len(t.Kinds) == 0 }
func isIntConst(t *ir.Type) bool  { _, ok := t.Const.(int64); return ok && len(t.Kinds) == 0 }

func kindsText(t *ir.Type) string {
	if len(t.Kinds) == 0 {
		switch t.Const.(type) {
		case string:
			return "string"
		case bool:
			return "boolean"
		case int64:
			return "integer"
		}
	}
	var s []string
	for _, k := range t.Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, " or ")
}

func (g *goVal) str(t *ir.Type, x, p string) {
	if c, ok := t.Const.(string); ok {
		g.w("if %s != %s { e.str(%s, %s, %s) }", x, q(c), p, q(strconv.Quote(c)), x)
	}
	if len(t.Enum) > 0 {
		qs := make([]string, len(t.Enum))
		for i, s := range t.Enum {
			qs[i] = q(s)
		}
		g.w("switch %s {", x)
		g.w("case %s:", strings.Join(qs, ", "))
		g.w("default: e.str(%s, %s, %s)", p, q("one of "+strings.Join(t.Enum, ", ")), x)
		g.w("}")
	}
	if t.MinLength != nil || t.MaxLength != nil {
		// Count code points only when the byte length cannot decide (a code point is 1..4 bytes).
		var pre []string
		if t.MaxLength != nil {
			pre = append(pre, fmt.Sprintf("len(%s) > %d", x, *t.MaxLength))
		}
		if t.MinLength != nil {
			pre = append(pre, fmt.Sprintf("len(%s) < %d", x, 4**t.MinLength))
		}
		g.w("if %s {", strings.Join(pre, " || "))
		g.w("if n := codePoints(%s); %s { e.count(%s, %s, n) }", x, emit.LenCond("n", t.MinLength, t.MaxLength), p, q(emit.RangeText(t.MinLength, t.MaxLength)+" characters"))
		g.w("}")
	}
	if t.MinBytes != nil || t.MaxBytes != nil {
		g.w("if n := len(%s); %s { e.count(%s, %s, n) }", x, emit.LenCond("n", t.MinBytes, t.MaxBytes), p, q(emit.RangeText(t.MinBytes, t.MaxBytes)+" UTF-8 bytes"))
	}
	if t.Pattern != "" {
		g.w("if !%s.MatchString(%s) { e.str(%s, %s, %s) }", g.re(t.Pattern), x, p, q("a match of "+t.Pattern), x)
	}
}

func (g *goVal) num(t *ir.Type, n, p string, integer bool) {
	report := "e.float"
	if integer {
		report = "e.int"
	}
	if c, ok := t.Const.(int64); ok {
		g.w("if %s != %d { %s(%s, %s, %s) }", n, c, report, p, q(fmt.Sprint(c)), n)
	}
	conv := n
	if integer {
		conv = "float64(" + n + ")"
	}
	if t.Minimum != nil {
		g.w("if %s < %s { %s(%s, %s, %s) }", conv, emit.Fnum(*t.Minimum), report, p, q("at least "+emit.Fnum(*t.Minimum)), n)
	}
	if t.Maximum != nil {
		g.w("if %s > %s { %s(%s, %s, %s) }", conv, emit.Fnum(*t.Maximum), report, p, q("at most "+emit.Fnum(*t.Maximum)), n)
	}
	g.w("_ = %s", n)
}

func (g *goVal) object(t *ir.Type, x, p string, d int) {
	// One pass over the members: each known member lands in its own variable, anything else is
	// unknown. Cheaper than a lookup per declared field after a separate unknown-key scan.
	for i := range t.Fields {
		g.w("var f%d_%d any", d, i)
		g.w("h%d_%d := false", d, i)
	}
	g.w("for k, val := range %s {", x)
	g.w("switch k {")
	for i, f := range t.Fields {
		g.w("case %q: f%d_%d, h%d_%d = val, true", f.Name, d, i, d, i)
	}
	g.w("default: e.unknown(%s, k)", p)
	g.w("}")
	g.w("_ = val")
	g.w("}")
	for i, f := range t.Fields {
		fv := fmt.Sprintf("f%d_%d", d, i)
		g.w("if h%d_%d {", d, i)
		if ft := f.Type; ft.Ref == "" && len(ft.OneOf) == 0 && len(ft.Kinds) == 0 && ft.Const == nil && ft.Enum == nil {
			g.w("_ = %s // any JSON value", fv)
		} else {
			g.w("fp := vpath{up: %s, key: %q}", p, f.Name)
			g.check(f.Type, fv, "&fp", d+1)
		}
		if f.Required {
			g.w("} else { e.missing(%s, %q) }", p, f.Name)
		} else {
			g.w("}")
		}
	}
}

func (g *goVal) union(t *ir.Type, v, p string, d int) {
	x := fmt.Sprintf("u%d", d)
	g.w("%s, ok := %s.(map[string]any)", x, v)
	g.w("if !ok { e.fail(%s, \"object\", %s); return }", p, v)
	dd := t.Disc
	if dd.Property != "" {
		g.w("switch %s[%q] {", x, dd.Property)
		for i, vt := range t.OneOf {
			g.w("case %q: validate%s(%s, %s, e)", dd.Values[i], vt.Ref, v, p)
		}
		g.w("default: e.msg(%s, %s)", p, q(fmt.Sprintf("member %q must be one of %s", dd.Property, strings.Join(dd.Values, ", "))))
		g.w("}")
		return
	}
	fallback := ""
	first := true
	for i, vt := range t.OneOf {
		if dd.Keys[i] == "" {
			fallback = vt.Ref
			continue
		}
		kw := "if"
		if !first {
			kw = "} else if"
		}
		first = false
		g.w("%s _, ok := %s[%q]; ok {", kw, x, dd.Keys[i])
		g.w("validate%s(%s, %s, e)", vt.Ref, v, p)
	}
	g.w("} else {")
	if fallback != "" {
		g.w("validate%s(%s, %s, e)", fallback, v, p)
	} else {
		g.w("e.msg(%s, %s)", p, q("want one of the members "+strings.Join(dd.Keys, ", ")))
	}
	g.w("}")
}
