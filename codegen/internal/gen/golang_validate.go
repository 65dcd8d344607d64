package gen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// goValidators emits one validate<Name> function per named type of a file: straight-line
// checks over the strictjson tree, no reflection and no schema walking at run time.
func goValidators(m *ir.Model, f *ir.File) string {
	var body bytes.Buffer
	g := &goVal{m: m, b: &body, regexps: map[string]string{}, prefix: goName(f.Stem)}
	for _, n := range f.Types {
		fmt.Fprintf(&body, "func validate%s(v any, p *vpath, e *verrs) {\n", n.Name)
		g.check(n.Type, "v", "p", 0)
		body.WriteString("}\n\n")
	}
	var b bytes.Buffer
	b.WriteString(header("//", fingerprint(false, f.Types)))
	b.WriteString("\npackage protocol\n\n")
	imports := []string{}
	src := quietGuard(body.String())
	if strings.Contains(src, "json.") {
		imports = append(imports, `"encoding/json"`)
	}
	if strings.Contains(src, "utf8.") {
		imports = append(imports, `"unicode/utf8"`)
	}
	needRegexp := false
	for _, pat := range g.order {
		if _, ok := seqAtoms(pat); !ok {
			needRegexp = true
		}
	}
	if needRegexp {
		imports = append(imports, `"regexp"`)
	}
	if len(imports) > 0 {
		fmt.Fprintf(&b, "import (\n\t%s\n)\n\n", strings.Join(imports, "\n\t"))
	}
	if len(g.order) > 0 {
		b.WriteString("var (\n")
		for _, pat := range g.order {
			if atoms, ok := seqAtoms(pat); ok {
				// A fixed sequence of classes: matched without the regexp engine (TestSeqPatterns
				// proves it equals regexp on every schema pattern).
				fmt.Fprintf(&b, "\t%s = newSeqPattern(%s, %s)\n", g.regexps[pat], strconv.Quote(pat), atoms)
				continue
			}
			fmt.Fprintf(&b, "\t%s = regexp.MustCompile(%s)\n", g.regexps[pat], strconv.Quote(pat))
		}
		b.WriteString(")\n\n")
	}
	b.WriteString(src)
	return b.String()
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
	n := "re" + g.prefix + fingerprint(true, pat)[:8]
	g.regexps[pat] = n
	g.order = append(g.order, pat)
	return n
}

func (g *goVal) w(format string, a ...any) { fmt.Fprintf(g.b, format+"\n", a...) }

func fnum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// check emits statements validating expression v (type any) at path expression p.
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
	if h := leafHelper(t); h != "" {
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
			g.w("if %s != %v { e.add(%s, \"want %v\") }", x, c, p, c)
		}
	}
	if t.Has(ir.Integer) || t.Has(ir.Number) || isIntConst(t) {
		g.w("case json.Number:")
		if t.Has(ir.Integer) || isIntConst(t) {
			g.w("n, ok := asInt(%s)", x)
			g.w("if !ok { e.add(%s, \"want an integer within ±(2^53-1) written without fraction or exponent, got %%s\", %s); break }", p, x)
			g.num(t, "n", p, true)
		} else {
			g.w("n, ok := asNum(%s)", x)
			g.w("if !ok { e.add(%s, \"want a number\"); break }", p)
			g.num(t, "n", p, false)
		}
	}
	if t.Has(ir.Array) {
		g.w("case []any:")
		if t.MinItems != nil {
			g.w("if len(%s) < %d { e.add(%s, \"want at least %d items, got %%d\", len(%s)) }", x, *t.MinItems, p, *t.MinItems, x)
		}
		if t.MaxItems != nil {
			g.w("if len(%s) > %d { e.add(%s, \"want at most %d items, got %%d\", len(%s)) }", x, *t.MaxItems, p, *t.MaxItems, x)
		}
		if t.Unique {
			g.w("if i, j, dup := duplicate(%s); dup { e.add(%s, \"items %%d and %%d are equal\", i, j) }", x, p)
		}
		g.w("for i%d, it%d := range %s {", d, d, x)
		g.w("ip%d := vpath{up: %s, idx: i%d}", d, p, d)
		g.w("_ = ip%d", d)
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
	g.w("e.add(%s, \"want %s, got %%s\", kindName(%s))", p, kindsText(t), v)
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
		g.w("if %s != %q { e.add(%s, \"want %%q, got %%q\", %q, %s) }", x, c, p, c, x)
	}
	if len(t.Enum) > 0 {
		q := make([]string, len(t.Enum))
		for i, s := range t.Enum {
			q[i] = strconv.Quote(s)
		}
		g.w("switch %s {", x)
		g.w("case %s:", strings.Join(q, ", "))
		g.w("default: e.add(%s, \"want one of %s, got %%q\", %s)", p, strings.ReplaceAll(strings.Join(t.Enum, ", "), "%", "%%"), x)
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
		g.w("if n := utf8.RuneCountInString(%s); %s {", x, lenCond("n", t.MinLength, t.MaxLength))
		g.w("e.add(%s, \"want %s characters, got %%d\", n) }", p, rangeText(t.MinLength, t.MaxLength))
		g.w("}")
	}
	if t.MinBytes != nil || t.MaxBytes != nil {
		g.w("if n := len(%s); %s {", x, lenCond("n", t.MinBytes, t.MaxBytes))
		g.w("e.add(%s, \"want %s UTF-8 bytes, got %%d\", n) }", p, rangeText(t.MinBytes, t.MaxBytes))
	}
	if t.Pattern != "" {
		g.w("if !%s.MatchString(%s) { e.add(%s, \"does not match %%s\", %q) }", g.re(t.Pattern), x, p, t.Pattern)
	}
}

func lenCond(n string, lo, hi *int64) string {
	var c []string
	if lo != nil {
		c = append(c, fmt.Sprintf("%s < %d", n, *lo))
	}
	if hi != nil {
		c = append(c, fmt.Sprintf("%s > %d", n, *hi))
	}
	return strings.Join(c, " || ")
}

func rangeText(lo, hi *int64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d..%d", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("at least %d", *lo)
	default:
		return fmt.Sprintf("at most %d", *hi)
	}
}

func (g *goVal) num(t *ir.Type, n, p string, integer bool) {
	if c, ok := t.Const.(int64); ok {
		g.w("if %s != %d { e.add(%s, \"want %d\") }", n, c, p, c)
	}
	conv := n
	if integer {
		conv = "float64(" + n + ")"
	}
	if t.Minimum != nil {
		g.w("if %s < %s { e.add(%s, \"want at least %s, got %%v\", %s) }", conv, fnum(*t.Minimum), p, fnum(*t.Minimum), n)
	}
	if t.Maximum != nil {
		g.w("if %s > %s { e.add(%s, \"want at most %s, got %%v\", %s) }", conv, fnum(*t.Maximum), p, fnum(*t.Maximum), n)
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
	g.w("default: e.add(%s, \"unknown field %%q\", k)", p)
	g.w("}")
	g.w("_ = val")
	g.w("}")
	for i, f := range t.Fields {
		fv := fmt.Sprintf("f%d_%d", d, i)
		g.w("if h%d_%d {", d, i)
		g.w("fp := vpath{up: %s, key: %q}", p, f.Name)
		g.w("_ = fp")
		g.check(f.Type, fv, "&fp", d+1)
		if f.Required {
			g.w("} else { e.add(%s, \"missing required field %%q\", %q) }", p, f.Name)
		} else {
			g.w("}")
		}
	}
}

func (g *goVal) union(t *ir.Type, v, p string, d int) {
	x := fmt.Sprintf("u%d", d)
	g.w("%s, ok := %s.(map[string]any)", x, v)
	g.w("if !ok { e.add(%s, \"want object, got %%s\", kindName(%s)); return }", p, v)
	dd := t.Disc
	if dd.Property != "" {
		g.w("switch %s[%q] {", x, dd.Property)
		for i, vt := range t.OneOf {
			g.w("case %q: validate%s(%s, %s, e)", dd.Values[i], vt.Ref, v, p)
		}
		g.w("default: e.add(%s, \"member \\\"%s\\\" must be one of %s\")", p, dd.Property, strings.Join(dd.Values, ", "))
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
		var keys []string
		for _, k := range dd.Keys {
			keys = append(keys, k)
		}
		g.w("e.add(%s, \"want one of the members %s\")", p, strings.Join(keys, ", "))
	}
	g.w("}")
}

// quietGuard wraps every e.add(...) call so the verdict-only mode (protocol.Valid) never
// builds its arguments: boxing them into ...any would allocate on every failed check.
func quietGuard(src string) string {
	var out strings.Builder
	for {
		i := strings.Index(src, "e.add(")
		if i < 0 {
			out.WriteString(src)
			return out.String()
		}
		out.WriteString(src[:i])
		// Find the matching ')' (string literals may contain parentheses).
		depth, j, inStr := 0, i+len("e.add"), false
		for ; j < len(src); j++ {
			c := src[j]
			if inStr {
				if c == '\\' {
					j++
				} else if c == '"' {
					inStr = false
				}
				continue
			}
			if c == '"' {
				inStr = true
			} else if c == '(' {
				depth++
			} else if c == ')' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		out.WriteString("if e.quiet { e.n++ } else { " + src[i:j+1] + " }")
		src = src[j+1:]
	}
}
