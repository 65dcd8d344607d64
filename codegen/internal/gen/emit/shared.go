package emit

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/octet-kit/octet/codegen/internal/ir"
)

// Renderings more than one target shares.

// Fnum writes a schema number as the shortest decimal that reads back the same.
func Fnum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// LenCond is the condition that n is outside lo..hi (either bound may be absent).
func LenCond(n string, lo, hi *int64) string {
	var c []string
	if lo != nil {
		c = append(c, fmt.Sprintf("%s < %d", n, *lo))
	}
	if hi != nil {
		c = append(c, fmt.Sprintf("%s > %d", n, *hi))
	}
	return strings.Join(c, " || ")
}

// RangeText words the bounds lo..hi for an error message.
func RangeText(lo, hi *int64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d..%d", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("at least %d", *lo)
	default:
		return fmt.Sprintf("at most %d", *hi)
	}
}

// LeafHelper names the shared runtime check for a single unconstrained kind ("" if none).
func LeafHelper(t *ir.Type) string {
	if len(t.Kinds) != 1 || t.Const != nil || len(t.Enum) > 0 || t.Pattern != "" || t.MinLength != nil || t.MaxLength != nil ||
		t.MinBytes != nil || t.MaxBytes != nil || t.Minimum != nil || t.Maximum != nil {
		return ""
	}
	switch t.Kinds[0] {
	case ir.String:
		return "wantString"
	case ir.Boolean:
		return "wantBoolean"
	case ir.Number:
		return "wantNumber"
	case ir.Integer:
		return "wantInt"
	case ir.Object:
		if t.Open {
			return "wantObject"
		}
	}
	return ""
}

// OneLine joins a description's lines for a table cell.
func OneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " ") }
