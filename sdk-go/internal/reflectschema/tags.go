package reflectschema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// applyTags refines a field's schema by its tags: jsonschema_description, then the
// comma-separated name=value keywords of `jsonschema` (a comma inside a value is
// written `\,`), the generic ones first and then those of the schema's type (the
// generic `type=` may change it), and last jsonschema_extras, which override.
// parent is the enclosing object's schema, for oneof_required and anyof_required.
func applyTags(f reflect.StructField, s, parent map[string]any, name string) error {
	setString(s, "description", f.Tag.Get("jsonschema_description"))
	rest := genericKeywords(splitUnescaped(f.Tag.Get("jsonschema")), s, parent, name)
	var err error
	switch s["type"] {
	case "string":
		err = stringKeywords(rest, s)
	case "number", "integer":
		err = numberKeywords(rest, s)
	case "array":
		err = arrayKeywords(rest, s)
	case "boolean":
		booleanKeywords(rest, s)
	}
	if err != nil {
		return err
	}
	extraKeywords(f.Tag.Get("jsonschema_extras"), s)
	return nil
}

// splitUnescaped splits a tag at the commas not preceded by a backslash.
func splitUnescaped(tag string) []string {
	parts := strings.Split(tag, ",")
	out := parts[:1]
	for _, p := range parts[1:] {
		last := out[len(out)-1]
		if last != "" && last[len(last)-1] == '\\' {
			out[len(out)-1] = last[:len(last)-1] + "," + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// setString sets a string keyword, or removes it when the value is empty (an
// empty title or format is no keyword at all).
func setString(s map[string]any, key, val string) {
	if val == "" {
		delete(s, key)
		return
	}
	s[key] = val
}

// genericKeywords applies the keywords of any type and returns the other
// name=value pairs; a tag without `=` (required, nullable) is read elsewhere.
func genericKeywords(tags []string, s, parent map[string]any, name string) []string {
	var rest []string
	for _, tag := range tags {
		key, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch key {
		case "title":
			setString(s, "title", val)
		case "description":
			setString(s, "description", val)
		case "type":
			setString(s, "type", val)
		case "anchor":
			setString(s, "$anchor", val)
		case "oneof_required", "anyof_required":
			requiredGroup(parent, strings.TrimSuffix(key, "_required"), val, name)
		case "oneof_type", "anyof_type":
			delete(s, "type")
			s[combinator(key)] = appendTypes(s[combinator(key)], val)
		case "oneof_ref", "anyof_ref":
			target := s
			if items, ok := s["items"].(map[string]any); ok {
				target = items
			}
			delete(target, "$ref")
			target[combinator(key)] = appendRefs(target[combinator(key)], val)
		default:
			rest = append(rest, tag)
		}
	}
	return rest
}

// combinator is the keyword a tag's prefix names: oneof_* is oneOf, anyof_* anyOf.
func combinator(key string) string {
	if strings.HasPrefix(key, "oneof") {
		return "oneOf"
	}
	return "anyOf"
}

// requiredGroup adds name to the parent's oneOf or anyOf branch titled group,
// creating the branch: the object then needs the fields of one (or any) group.
func requiredGroup(parent map[string]any, kind, group, name string) {
	key := combinator(kind)
	branches, _ := parent[key].([]any)
	var found map[string]any
	for _, b := range branches {
		if m, ok := b.(map[string]any); ok && m["title"] == group {
			found = m
		}
	}
	if found == nil {
		found = map[string]any{"title": group}
		branches = append(branches, found)
		parent[key] = branches
	}
	req, _ := found["required"].([]any)
	found["required"] = append(req, name)
}

func appendTypes(have any, val string) []any {
	l, _ := have.([]any)
	for _, t := range strings.Split(val, ";") {
		l = append(l, typeBranch(t))
	}
	return l
}

func appendRefs(have any, val string) []any {
	l, _ := have.([]any)
	for _, r := range strings.Split(val, ";") {
		b := map[string]any{}
		setString(b, "$ref", r)
		l = append(l, b)
	}
	return l
}

func typeBranch(t string) map[string]any {
	b := map[string]any{}
	setString(b, "type", t)
	return b
}

// setCount sets a non-negative integer keyword (minLength, maxItems); a value that
// is not one removes the keyword.
func setCount(s map[string]any, key, val string) {
	n, err := strconv.ParseUint(val, 10, 64)
	if err != nil {
		delete(s, key)
		return
	}
	s[key] = float64(n)
}

// number reads a tag's numeric value. ok is false for what is no number (the
// keyword is then dropped); a number Go parses but JSON cannot write (+1, Inf,
// 0x1p4) is an error naming it.
func number(key, val string) (float64, bool, error) {
	if _, err := strconv.ParseInt(val, 10, 64); err != nil {
		if _, err := strconv.ParseFloat(val, 64); err != nil {
			return 0, false, nil
		}
	}
	if !isJSONNumber(val) {
		return 0, false, fmt.Errorf("jsonschema tag %s=%s: not a JSON number", key, val)
	}
	f, _ := strconv.ParseFloat(val, 64)
	return f, true, nil
}
