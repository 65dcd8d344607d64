package reflectschema

import (
	"strconv"
	"strings"
)

// extraKeywords applies jsonschema_extras: comma-separated name=value pairs set as
// keywords as written (true and false as booleans, minimum as an integer), a name
// given twice collecting its strings in a list. They override what the other tags
// set.
func extraKeywords(tag string, s map[string]any) {
	extras := map[string]any{}
	for _, part := range strings.Split(tag, ",") {
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		have, seen := extras[key]
		switch {
		case !seen && key == "minimum":
			n, _ := strconv.Atoi(val)
			extras[key] = float64(n)
		case !seen:
			extras[key] = literal(val)
		default:
			extras[key] = again(have, val)
		}
	}
	for k, v := range extras {
		if l, ok := v.([]string); ok {
			a := make([]any, len(l))
			for i, x := range l {
				a[i] = x
			}
			v = a
		}
		s[k] = v
	}
}

// literal is an extra's first value: true and false are booleans, the rest strings.
func literal(val string) any {
	switch val {
	case "true":
		return true
	case "false":
		return false
	}
	return val
}

// again is an extra's value when its name comes again: strings collect in a list,
// a boolean or an integer takes the new value.
func again(have any, val string) any {
	switch h := have.(type) {
	case string:
		return []string{h, val}
	case []string:
		return append(h, val)
	case float64: // minimum
		n, _ := strconv.Atoi(val)
		return float64(n)
	case bool:
		return val == "true" || val == "t"
	}
	return have
}
