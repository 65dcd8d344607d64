// Package columns lays text out in aligned columns by display width, the cells a terminal
// gives a string: a wide (CJK) or fullwidth character takes two, a combining mark or a
// zero-width character none. text/tabwriter counts runes, so a table with a name like
// "検索" or "é" (written e + U+0301) drifts by a cell per such character.
package columns

import (
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Width is the number of terminal cells s takes.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	switch {
	case r == utf8.RuneError, unicode.Is(unicode.Mn, r), unicode.Is(unicode.Me, r), unicode.Is(unicode.Cf, r), unicode.IsControl(r):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Pad returns s followed by spaces up to w cells.
func Pad(s string, w int) string {
	if d := w - Width(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// Table collects rows and writes them with every column as wide as its widest cell, two
// spaces between columns and no trailing spaces. A row may be a Note: its text is written
// on a line of its own, indented to Indent's column, and does not widen any column (the
// --verbose frame under an inspect line).
type Table struct {
	rows []row
}

type row struct {
	cells  []string
	note   string
	indent int // column index a note is indented to
	isNote bool
}

// Row adds a row of cells.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, row{cells: cells}) }

// Note adds a free line indented to the start of column col.
func (t *Table) Note(col int, text string) {
	t.rows = append(t.rows, row{note: text, indent: col, isNote: true})
}

// WriteTo writes the table.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r.cells {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], Width(c))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		if r.isNote {
			pad := 0
			for i := 0; i < r.indent && i < len(widths); i++ {
				pad += widths[i] + 2
			}
			b.WriteString(strings.Repeat(" ", pad) + r.note + "\n")
			continue
		}
		var line strings.Builder
		for i, c := range r.cells {
			if i > 0 {
				line.WriteString("  ")
			}
			if i == len(r.cells)-1 {
				line.WriteString(c)
			} else {
				line.WriteString(Pad(c, widths[i]))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}
