package manifest

import (
	"fmt"
	"math"
	"time"

	"github.com/BurntSushi/toml"
)

// decodeTOML parses TOML into JSON-compatible values (map[string]any, []any, string,
// int64, float64, bool). TOML dates have no JSON form and are refused, as are
// integers outside ±(2^53−1), which JavaScript peers could not represent.
func decodeTOML(data []byte) (map[string]any, error) {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, err
	}
	out, err := toJSONValue(doc, "")
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

const maxSafeInt = 1<<53 - 1

func toJSONValue(v any, path string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			c, err := toJSONValue(e, join(path, k))
			if err != nil {
				return nil, err
			}
			m[k] = c
		}
		return m, nil
	case []map[string]any:
		l := make([]any, len(x))
		for i, e := range x {
			c, err := toJSONValue(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			l[i] = c
		}
		return l, nil
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			c, err := toJSONValue(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			l[i] = c
		}
		return l, nil
	case int64:
		if x > maxSafeInt || x < -maxSafeInt {
			return nil, fmt.Errorf("%s: integer %d is outside ±(2^53−1)", path, x)
		}
		return x, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: %v has no JSON form", path, x)
		}
		return x, nil
	case string, bool:
		return x, nil
	case time.Time:
		return nil, fmt.Errorf("%s: TOML dates and times have no JSON form; use a string", path)
	default:
		return nil, fmt.Errorf("%s: unsupported TOML value of type %T", path, v)
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
