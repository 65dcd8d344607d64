package reflectschema

import (
	"strconv"
	"strings"
)

// stringKeywords applies the keywords of a string schema.
func stringKeywords(tags []string, s map[string]any) error {
	for _, tag := range tags {
		key, val, ok := strings.Cut(tag, "=")
		if !ok {
			continue
		}
		switch key {
		case "minLength", "maxLength":
			setCount(s, key, val)
		case "pattern", "format":
			setString(s, key, val)
		case "readOnly", "writeOnly":
			if b, _ := strconv.ParseBool(val); b {
				s[key] = true
			} else {
				delete(s, key)
			}
		case "default":
			s["default"] = val
		case "example":
			s["examples"] = appendAny(s["examples"], val)
		case "enum":
			s["enum"] = appendAny(s["enum"], val)
		}
	}
	return nil
}

// pair splits name=value where the value itself holds no `=`, the form the
// numeric, array and boolean keywords accept.
func pair(tag string) (string, string, bool) {
	parts := strings.Split(tag, "=")
	if len(parts) != 2 {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// numberKeywords applies the keywords of a number or integer schema.
func numberKeywords(tags []string, s map[string]any) error {
	for _, tag := range tags {
		key, val, ok := pair(tag)
		if !ok {
			continue
		}
		switch key {
		case "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "default", "example", "enum":
		default:
			continue
		}
		n, ok, err := number(key, val)
		if err != nil {
			return err
		}
		switch key {
		case "default":
			if ok {
				s["default"] = n
			}
		case "example":
			if ok {
				s["examples"] = appendAny(s["examples"], n)
			}
		case "enum":
			if ok {
				s["enum"] = appendAny(s["enum"], n)
			}
		default: // a bound that is no number removes the bound
			if ok {
				s[key] = n
			} else {
				delete(s, key)
			}
		}
	}
	return nil
}

// booleanKeywords applies the keywords of a boolean schema: only default.
func booleanKeywords(tags []string, s map[string]any) {
	for _, tag := range tags {
		key, val, ok := pair(tag)
		if ok && key == "default" && (val == "true" || val == "false") {
			s["default"] = val == "true"
		}
	}
}

// arrayKeywords applies the keywords of an array schema; format and pattern, and
// any keyword an array has not, apply to its items.
func arrayKeywords(tags []string, s map[string]any) error {
	items, _ := s["items"].(map[string]any)
	var defaults, rest []string
	for _, tag := range tags {
		key, val, ok := pair(tag)
		if !ok {
			continue
		}
		switch key {
		case "minItems", "maxItems":
			setCount(s, key, val)
		case "uniqueItems":
			s["uniqueItems"] = true
		case "default":
			defaults = append(defaults, val)
		case "format", "pattern":
			if items != nil {
				setString(items, key, val)
			}
		default:
			rest = append(rest, tag)
		}
	}
	if len(defaults) > 0 {
		l := make([]any, len(defaults))
		for i, d := range defaults {
			l[i] = d
		}
		s["default"] = l
	}
	if len(rest) == 0 || items == nil {
		return nil
	}
	switch items["type"] {
	case "string":
		return stringKeywords(rest, items)
	case "number", "integer":
		return numberKeywords(rest, items)
	case "boolean":
		booleanKeywords(rest, items)
	}
	return nil
}

func appendAny(have any, v any) []any {
	l, _ := have.([]any)
	return append(l, v)
}
