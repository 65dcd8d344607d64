package columns

import (
	"strings"
	"testing"
)

func TestWidth(t *testing.T) {
	for s, want := range map[string]int{"abc": 3, "検索": 4, "e\u0301": 1, "ＡＢ": 4, "→": 1, "": 0, "a\u200bb": 2} {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
}

// Every row's second column starts at the same display column, whatever the widths of
// the first (ASCII, wide CJK, a combining accent), and a note widens nothing.
func TestTableAlignsByDisplayWidth(t *testing.T) {
	var tb Table
	tb.Row("NAME", "STATE", "X")
	tb.Row("a", "ready", "1")
	tb.Row("検索ツール", "starting", "22")
	tb.Row("cafe\u0301", "-", "333")
	tb.Note(1, strings.Repeat("n", 200))
	tb.Row("zz", "parked", "4")
	var b strings.Builder
	tb.WriteTo(&b)
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	starts := map[int]bool{}
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "nnn") {
			if got := Width(l[:strings.Index(l, "n")]); got != Width("検索ツール")+2 {
				t.Errorf("note indented to %d", got)
			}
			continue
		}
		f := strings.Fields(l)
		// the display column where the second field starts
		starts[Width(l[:strings.Index(l, "  "+f[1])+2])] = true
		if strings.HasSuffix(l, " ") {
			t.Errorf("trailing space: %q", l)
		}
	}
	if len(starts) != 1 {
		t.Fatalf("second column starts at %v:\n%s", starts, b.String())
	}
}
