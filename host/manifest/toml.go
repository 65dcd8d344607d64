package manifest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// decodeTOML parses TOML into JSON-compatible values (map[string]any, []any, string,
// int64, float64, bool). Nesting is counted before the decoder runs (CheckTOMLDepth). TOML
// dates have no JSON form and are refused, as are integers outside ±(2^53−1), which
// JavaScript peers could not represent.
func decodeTOML(data []byte) (map[string]any, error) {
	if err := CheckTOMLDepth(data); err != nil {
		return nil, err
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, err
	}
	c := converter{}
	out, err := c.value(doc, 1)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

const maxSafeInt = 1<<53 - 1

// converter turns decoded TOML into JSON values. path holds the keys and indexes down to
// the value being converted; the dotted path string is built only for an error, so a
// deep document costs no string per level (building one at every level is quadratic).
type converter struct {
	path []string // a key, or "[i]" for an index
}

func (c *converter) fail(format string, a ...any) error {
	var b strings.Builder
	for _, p := range c.path {
		if b.Len() > 0 && !strings.HasPrefix(p, "[") {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return fmt.Errorf("%s: %s", b.String(), fmt.Sprintf(format, a...))
}

// value converts v, a container at nesting level depth when it is one (the root is 1).
func (c *converter) value(v any, depth int) (any, error) {
	switch v.(type) {
	case map[string]any, []map[string]any, []any:
		if depth > MaxDepth { // CheckTOMLDepth refuses this first; kept so no caller recurses unbounded
			return nil, c.fail("nesting deeper than %d levels (MAX_JSON_DEPTH)", MaxDepth)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			c.path = append(c.path, k)
			conv, err := c.value(e, depth+1)
			if err != nil {
				return nil, err
			}
			c.path = c.path[:len(c.path)-1]
			m[k] = conv
		}
		return m, nil
	case []map[string]any:
		l := make([]any, len(x))
		for i, e := range x {
			conv, err := c.element(i, e, depth+1)
			if err != nil {
				return nil, err
			}
			l[i] = conv
		}
		return l, nil
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			conv, err := c.element(i, e, depth+1)
			if err != nil {
				return nil, err
			}
			l[i] = conv
		}
		return l, nil
	case int64:
		if x > maxSafeInt || x < -maxSafeInt {
			return nil, c.fail("integer %d is outside ±(2^53−1)", x)
		}
		return x, nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, c.fail("%v has no JSON form", x)
		}
		return x, nil
	case string, bool:
		return x, nil
	case time.Time:
		return nil, c.fail("TOML dates and times have no JSON form; use a string")
	default:
		return nil, c.fail("unsupported TOML value of type %T", v)
	}
}

func (c *converter) element(i int, e any, depth int) (any, error) {
	c.path = append(c.path, "["+strconv.Itoa(i)+"]")
	conv, err := c.value(e, depth)
	if err != nil {
		return nil, err
	}
	c.path = c.path[:len(c.path)-1]
	return conv, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
