package process

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log filled exactly to its bound by one write still ends with the marker once more
// output is dropped (issue 19 finding 6: it ended without it); one that never goes past
// the bound has none.
func TestStderrLogMarkerAfterAnExactFill(t *testing.T) {
	for _, c := range []struct {
		writes []string
		want   string
	}{
		{[]string{"0123456789", "x"}, "0123456789\n" + TruncationMarker},
		{[]string{"01234", "56789", "xy", "z"}, "0123456789\n" + TruncationMarker},
		{[]string{"0123456789abc"}, "0123456789\n" + TruncationMarker},
		{[]string{"01234", "56789"}, "0123456789"},
	} {
		path := filepath.Join(t.TempDir(), "x.log")
		l, err := openLog(path, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.writes {
			l.write([]byte(w))
		}
		l.file.Close()
		got, _ := os.ReadFile(path)
		if string(got) != c.want {
			t.Errorf("writes %q: log %q, want %q", strings.Join(c.writes, "|"), got, c.want)
		}
	}
}
