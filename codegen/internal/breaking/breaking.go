// Package breaking compares a schema with its release baseline and lists the changes that
// would break an extension or host built against the baseline (modelled on buf's breaking
// rules): removed types, fields, enum values, methods, versions and error codes; narrowed
// types; optional fields made required and new required fields; tightened limits.
// Additive changes (new optional fields, types, enum values, methods) pass.
package breaking

import (
	"fmt"
	"sort"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Compare lists breaking changes from old to cur, sorted.
func Compare(old, cur *ir.Model) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	for _, n := range old.Types {
		c := cur.Lookup(n.Name)
		if c == nil {
			add("type %s removed", n.Name)
			continue
		}
		compareType(old, cur, n.Name, n.Type, c.Type, add)
	}
	limits := map[string]int64{}
	for _, l := range cur.Limits {
		limits[l.Name] = l.Value
	}
	for _, l := range old.Limits {
		v, ok := limits[l.Name]
		switch {
		case !ok:
			add("limit %s removed", l.Name)
		case strings.Contains(l.Name, "_MIN") && v > l.Value:
			add("limit %s tightened: %d -> %d", l.Name, l.Value, v)
		case !strings.Contains(l.Name, "_MIN") && v < l.Value:
			add("limit %s tightened: %d -> %d", l.Name, l.Value, v)
		}
	}
	codes := map[int64]bool{}
	for _, e := range cur.Errors {
		codes[e.Code] = true
	}
	for _, e := range old.Errors {
		if !codes[e.Code] {
			add("error code %d (%s) removed", e.Code, e.Name)
		}
	}
	methods := map[string]ir.Method{}
	for _, m := range cur.Methods {
		methods[m.Name] = m
	}
	for _, m := range old.Methods {
		c, ok := methods[m.Name]
		if !ok {
			add("method %s removed", m.Name)
			continue
		}
		for _, v := range m.Versions {
			if !contains(c.Versions, v) {
				add("method %s: API version %s removed", m.Name, v)
			}
		}
		if c.Kind != m.Kind || c.Direction != m.Direction {
			add("method %s: kind or direction changed", m.Name)
		}
	}
	sort.Strings(out)
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func compareType(om, cm *ir.Model, at string, o, c *ir.Type, add func(string, ...any)) {
	if o.Ref != "" && c.Ref != "" {
		// Named types are compared once, by name, at the top level.
		if o.Ref != c.Ref {
			add("%s: type changed from %s to %s", at, name(o), name(c))
		}
		return
	}
	if strings.Count(at, ".")+strings.Count(at, "[") > 32 {
		return // a recursive type expanded deeply; the top-level comparison covers it
	}
	// Inline on one side, named on the other: compare what the name stands for.
	if o.Ref != "" {
		o = om.Resolve(o)
	}
	if c.Ref != "" {
		c = cm.Resolve(c)
	}
	for _, k := range o.Kinds {
		if !c.Has(k) {
			add("%s: type narrowed: %s no longer allowed", at, k)
		}
	}
	if len(o.Kinds) == 0 && len(c.Kinds) > 0 && len(o.OneOf) == 0 {
		add("%s: type narrowed from any value to %v", at, c.Kinds)
	}
	if len(o.Enum) > 0 {
		for _, v := range o.Enum {
			if len(c.Enum) > 0 && !contains(c.Enum, v) {
				add("%s: enum value %q removed", at, v)
			}
		}
	} else if len(c.Enum) > 0 {
		add("%s: enum added (narrows the type)", at)
	}
	if o.Const == nil && c.Const != nil || o.Const != nil && c.Const != nil && o.Const != c.Const {
		add("%s: const added or changed", at)
	}
	if o.Pattern != c.Pattern && c.Pattern != "" {
		add("%s: pattern changed from %q to %q", at, o.Pattern, c.Pattern)
	}
	minI := func(f string, ov, cv *int64) {
		if cv != nil && (ov == nil || *cv > *ov) {
			add("%s: %s tightened", at, f)
		}
	}
	maxI := func(f string, ov, cv *int64) {
		if cv != nil && (ov == nil || *cv < *ov) {
			add("%s: %s tightened", at, f)
		}
	}
	minI("minLength", o.MinLength, c.MinLength)
	maxI("maxLength", o.MaxLength, c.MaxLength)
	minI("x-minBytes", o.MinBytes, c.MinBytes)
	maxI("x-maxBytes", o.MaxBytes, c.MaxBytes)
	minI("minItems", o.MinItems, c.MinItems)
	maxI("maxItems", o.MaxItems, c.MaxItems)
	if c.Minimum != nil && (o.Minimum == nil || *c.Minimum > *o.Minimum) {
		add("%s: minimum tightened", at)
	}
	if c.Maximum != nil && (o.Maximum == nil || *c.Maximum < *o.Maximum) {
		add("%s: maximum tightened", at)
	}
	if !o.Unique && c.Unique {
		add("%s: uniqueItems added", at)
	}
	if o.Open && !c.Open && c.Has(ir.Object) {
		add("%s: open object closed", at)
	}
	if o.Items != nil && c.Items != nil {
		compareType(om, cm, at+"[]", o.Items, c.Items, add)
	}
	for _, v := range o.OneOf {
		found := false
		for _, w := range c.OneOf {
			found = found || w.Ref == v.Ref
		}
		if !found {
			add("%s: union variant %s removed", at, v.Ref)
		}
	}
	fields := map[string]*ir.Field{}
	for _, f := range c.Fields {
		fields[f.Name] = f
	}
	for _, f := range o.Fields {
		cf, ok := fields[f.Name]
		if !ok {
			add("%s.%s: field removed", at, f.Name)
			continue
		}
		if !f.Required && cf.Required {
			add("%s.%s: optional field made required", at, f.Name)
		}
		compareType(om, cm, at+"."+f.Name, f.Type, cf.Type, add)
	}
	old := map[string]bool{}
	for _, f := range o.Fields {
		old[f.Name] = true
	}
	for _, f := range c.Fields {
		if !old[f.Name] && f.Required {
			add("%s.%s: new required field", at, f.Name)
		}
	}
}

func name(t *ir.Type) string {
	if t.Ref != "" {
		return t.Ref
	}
	return fmt.Sprint(t.Kinds)
}
