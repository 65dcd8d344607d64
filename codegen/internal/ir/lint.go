package ir

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Resolve follows references to the underlying node.
func (m *Model) Resolve(t *Type) *Type {
	for t != nil && t.Ref != "" {
		t = m.byName[t.Ref].Type
	}
	return t
}

var fieldName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// reserved are field names that are keywords in a target language; a wire field may not
// use one, so every emitter can use the JSON name as an identifier.
var reserved = map[string]bool{
	"and": true, "as": true, "assert": true, "async": true, "await": true, "break": true, "class": true,
	"continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true, "finally": true,
	"for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true,
	"try": true, "while": true, "with": true, "yield": true, "none": true, "true": true, "false": true,
}

// Lint refuses what the emitters do not support, naming the schema location.
func Lint(m *Model) error {
	var errs []string
	add := func(n *Named, format string, a ...any) {
		errs = append(errs, fmt.Sprintf("schema/%s#%s: %s", n.File.Path, n.Pointer, fmt.Sprintf(format, a...)))
	}
	goNames := map[string]string{}
	for _, n := range m.Types {
		if !regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`).MatchString(n.Name) {
			add(n, "type name %q must be CamelCase ASCII", n.Name)
		}
		if prev, ok := goNames[strings.ToLower(n.Name)]; ok {
			add(n, "type name %q differs from %q only in case", n.Name, prev)
		}
		goNames[strings.ToLower(n.Name)] = n.Name
		lintType(m, n, n.Type, true, func(f string, a ...any) { add(n, f, a...) })
	}
	codes := map[int64]bool{}
	names := map[string]bool{}
	for _, e := range m.Errors {
		if codes[e.Code] || names[e.Name] {
			errs = append(errs, fmt.Sprintf("schema/errors.schema.json: error %d %s is registered twice", e.Code, e.Name))
		}
		codes[e.Code], names[e.Name] = true, true
	}
	sort.Strings(errs)
	if len(errs) > 0 {
		return fmt.Errorf("schema lint:\n  %s", strings.Join(errs, "\n  "))
	}
	return nil
}

func lintType(m *Model, n *Named, t *Type, top bool, bad func(string, ...any)) {
	if t.Ref != "" {
		return
	}
	if len(t.OneOf) > 0 {
		if d, err := discriminate(m, t); err != nil {
			bad("%v", err)
		} else {
			t.Disc = d
		}
		return
	}
	nonNull := 0
	for _, k := range t.Kinds {
		if k != Null {
			nonNull++
		}
	}
	if nonNull > 1 && !top {
		bad("a value of several kinds must be its own named type ($defs)")
	}
	if t.Has(Object) && t.Has(Null) {
		bad("a nullable object is not supported; make the field optional instead")
	}
	if len(t.Enum) > 0 && (len(t.Kinds) != 1 || t.Kinds[0] != String) {
		bad("enum needs type string")
	}
	if t.Pattern != "" {
		if err := portablePattern(t.Pattern); err != nil {
			bad("pattern %q: %v", t.Pattern, err)
		}
	}
	if t.Has(Array) {
		if t.Items == nil {
			bad("an array needs items")
		} else {
			lintType(m, n, t.Items, false, bad)
			if t.Unique {
				it := m.Resolve(t.Items)
				if len(it.Kinds) != 1 || (it.Kinds[0] != String && it.Kinds[0] != Integer) {
					bad("uniqueItems is supported on arrays of strings or integers only")
				}
			}
		}
	}
	for _, f := range t.Fields {
		if !fieldName.MatchString(f.Name) || reserved[f.Name] {
			bad("field name %q must be snake_case and not a keyword of a target language", f.Name)
		}
		lintType(m, n, f.Type, false, func(format string, a ...any) { bad("field %s: "+format, append([]any{f.Name}, a...)...) })
	}
}

// discriminate finds how a oneOf picks its variant: a member that is a distinct string const in
// every variant, or else a member only one variant declares and requires (at most one variant,
// the fallback, has none). Every variant must be a closed object.
func discriminate(m *Model, t *Type) (*Discriminator, error) {
	var vars []*Type
	for _, v := range t.OneOf {
		vt := m.Resolve(v)
		if vt == nil || len(vt.Kinds) != 1 || vt.Kinds[0] != Object || vt.Open {
			return nil, fmt.Errorf("oneOf variant %s must be a closed object", v.Ref)
		}
		vars = append(vars, vt)
	}
	// Const discriminator: first field of the first variant that is a const everywhere.
	for _, f := range vars[0].Fields {
		vals := []string{}
		seen := map[string]bool{}
		ok := true
		for _, vt := range vars {
			var g *Field
			for _, x := range vt.Fields {
				if x.Name == f.Name {
					g = x
				}
			}
			if g == nil || !g.Required {
				ok = false
				break
			}
			gt := m.Resolve(g.Type)
			c, isStr := gt.Const.(string)
			if !isStr || seen[c] {
				ok = false
				break
			}
			seen[c] = true
			vals = append(vals, c)
		}
		if ok {
			return &Discriminator{Property: f.Name, Values: vals}, nil
		}
	}
	// Presence discriminator.
	declared := map[string]int{}
	for _, vt := range vars {
		for _, f := range vt.Fields {
			declared[f.Name]++
		}
	}
	keys := make([]string, len(vars))
	fallback := 0
	for i, vt := range vars {
		for _, f := range vt.Fields {
			if f.Required && declared[f.Name] == 1 {
				keys[i] = f.Name
				break
			}
		}
		if keys[i] == "" {
			fallback++
		}
	}
	if fallback > 1 {
		return nil, fmt.Errorf("oneOf has no discriminator: no member is a distinct const in every variant, and %d variants have no required member of their own", fallback)
	}
	return &Discriminator{Keys: keys}, nil
}

// portablePattern admits only patterns that mean the same in RE2, Python re and ECMAScript
// (with the u flag): ASCII, no shorthand classes (\d is Unicode-aware in Python), no '.'
// outside a class (ECMAScript's excludes \r and U+2028), no groups with (? and no
// backreferences. '$' is translated for Python (\Z) by its emitter.
func portablePattern(p string) error {
	for i := 0; i < len(p); i++ {
		if p[i] >= 0x80 {
			return fmt.Errorf("non-ASCII character at %d", i)
		}
	}
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return fmt.Errorf("trailing backslash")
			}
			e := p[i+1]
			if strings.IndexByte("dDwWsSbB0123456789pPuxk", e) >= 0 {
				return fmt.Errorf(`\%c is not portable; spell the class out`, e)
			}
			i++
		case c == '[' && !inClass:
			inClass = true
		case c == ']' && inClass:
			inClass = false
		case c == '.' && !inClass:
			return fmt.Errorf("'.' outside a class is not portable")
		case c == '(' && !inClass && i+1 < len(p) && p[i+1] == '?':
			return fmt.Errorf("(? groups are not portable")
		}
	}
	if _, err := regexp.Compile(p); err != nil {
		return err
	}
	return nil
}
