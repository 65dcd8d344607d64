package manifest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/manifest"
)

// Brackets, braces and dots that do not nest (in strings of every kind, comments, numbers,
// headers repeated at the same level) are not counted: such documents pass the depth scan
// whatever their length.
func TestTOMLDepthIgnoresWhatDoesNotNest(t *testing.T) {
	many := strings.Repeat("[{.", 200)
	for name, doc := range map[string]string{
		"basic string":     `a = "` + many + `\"` + many + `"`,
		"literal string":   `a = '` + many + `'`,
		"multi-line basic": "a = \"\"\"\n" + many + "\n\\\"\"\"" + many + "\"\"\"",
		"multi-line lit":   "a = '''\n" + many + "\n'''",
		"comment":          "# " + many + "\na = 1",
		"numbers":          "a = [" + strings.Repeat("1.5, ", 300) + "2.0e3]",
		"quoted keys":      `"` + many + `" = 1` + "\n" + `'` + many + `' = 2`,
		"array of tables":  strings.Repeat("[[t]]\nx = [1, [2, {y = 3}]]\n", 300),
		"inline tables":    "a = [" + strings.Repeat("{x = 1, y.z = [1]}, ", 300) + "]",
		"multi-line array": "a = [\n" + strings.Repeat("  [1, 2],\n", 300) + "]",
	} {
		if err := manifest.CheckTOMLDepth([]byte(doc)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Levels add up across a table header, a dotted key, an inline table's dotted key and the
// arrays of its value; one level past the bound is refused at the line and column where
// it happens.
func TestTOMLDepthAddsUpLevels(t *testing.T) {
	header := "[" + strings.TrimPrefix(strings.Repeat(".h", 40), ".") + "]\n" // tables at levels 2..41
	key := strings.TrimPrefix(strings.Repeat(".k", 40), ".")                  // tables 42..80; its value (the inline table) 81
	inner := "{" + strings.TrimPrefix(strings.Repeat(".i", 20), ".")          // tables 82..100; its value (the outer array) 101
	at := manifest.MaxDepth - 100                                             // arrays 101..128
	doc := func(arrays int) []byte {
		return []byte(header + key + " = " + inner + " = " + strings.Repeat("[", arrays) + strings.Repeat("]", arrays) + "}\n")
	}
	if err := manifest.CheckTOMLDepth(doc(at)); err != nil {
		t.Fatalf("at the bound: %v", err)
	}
	// The decoded document really is at the bound: the converter, which counts the levels
	// of the decoded values, does not refuse it either.
	if d := parseDiag(doc(at)); strings.Contains(d, "nesting") {
		t.Fatalf("the decoded document is deeper than the scan counted: %s", d)
	}
	err := manifest.CheckTOMLDepth(doc(at + 1))
	col := len(key+" = "+inner+" = ") + at + 1
	if err == nil || !strings.Contains(err.Error(), "line 2, column "+strconv.Itoa(col)+":") {
		t.Fatalf("one past: %v, want line 2, column %d", err, col)
	}
}
