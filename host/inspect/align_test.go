package inspect_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/octet-kit/octet/host/inspect"
	"github.com/octet-kit/octet/host/internal/columns"
	"github.com/octet-kit/octet/host/store"
)

// The exchange's columns line up, with and without --verbose, for values of different
// widths: a long method, a multi-digit id, a non-ASCII error message (wide CJK characters
// and a combining accent take two cells and none). Each column's header starts at the
// display column where every value of that column starts. (text/tabwriter, used before,
// restarted the columns after every --verbose frame line and counted runes, not cells.)
func TestExchangeColumnsAlign(t *testing.T) {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	st.StartRecording(ctx, "s", "ext", 1000)
	st.AppendFrames(ctx, "s", []store.Frame{
		{Seq: 1, AtMS: 1000, Direction: "host->ext", Frame: []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)},
		{Seq: 2, AtMS: 1001, Direction: "ext->host", Frame: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)},
		{Seq: 3, AtMS: 1002, Direction: "host->ext", Frame: []byte(`{"jsonrpc":"2.0","id":12345,"method":"tool/call","params":{"name":"検索"}}`)},
		{Seq: 4, AtMS: 1100, Direction: "ext->host", Frame: []byte(`{"jsonrpc":"2.0","id":12345,"error":{"code":-32602,"message":"引数が不正です"}}`)},
		{Seq: 5, AtMS: 1101, Direction: "ext->host", Frame: []byte(`{"jsonrpc":"2.0","method":"通知/café","id":7,"params":{}}`)},
		{Seq: 6, AtMS: 1102, Direction: "host", Frame: []byte(`{"method":"host/rejected","params":{}}`)},
	})
	entries, err := inspect.Exchange(ctx, st, "s")
	if err != nil {
		t.Fatal(err)
	}
	for _, verbose := range []bool{false, true} {
		var buf bytes.Buffer
		if err := inspect.WriteExchange(&buf, entries, false, verbose); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		header := lines[0]
		starts := map[string]int{}
		for _, h := range []string{"DIRECTION", "KIND", "METHOD", "ID", "DURATION", "ERROR"} {
			starts[h] = columns.Width(header[:strings.Index(header, h)])
		}
		rows := 0
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, " ") { // a --verbose frame: indented to DIRECTION
				if !verbose || columns.Width(l)-columns.Width(strings.TrimLeft(l, " ")) != starts["DIRECTION"] {
					t.Errorf("verbose=%v: frame line %q", verbose, l)
				}
				continue
			}
			rows++
			// Each cell is the text between column starts; a value starts exactly there.
			cols := []string{"DIRECTION", "KIND", "METHOD"}
			if strings.Contains(l, "通知") {
				cols = append(cols, "ID") // after a method of wide characters and a combining accent
			}
			for _, h := range cols {
				cell := cellAt(l, starts[h])
				if cell == "" || strings.HasPrefix(cell, " ") {
					t.Errorf("verbose=%v: %s does not start at cell %d in %q", verbose, h, starts[h], l)
				}
				if columns.Width(displayPrefix(l, starts[h])) != starts[h] || !strings.HasSuffix(displayPrefix(l, starts[h]), "  ") {
					t.Errorf("verbose=%v: the text before %s is not padded to cell %d in %q", verbose, h, starts[h], l)
				}
			}
		}
		if rows != len(entries) {
			t.Errorf("verbose=%v: %d rows for %d entries", verbose, rows, len(entries))
		}
		if verbose && !strings.Contains(buf.String(), "検索") {
			t.Errorf("verbose view lacks the frame:\n%s", buf.String())
		}
		// The error column, after the wide message's row, still starts where its header does.
		for _, l := range lines {
			if strings.Contains(l, "引数") && !strings.HasPrefix(l, " ") {
				if got := columns.Width(l[:strings.Index(l, "-32602")]); got != starts["ERROR"] {
					t.Errorf("verbose=%v: error at cell %d, header at %d:\n%s", verbose, got, starts["ERROR"], buf.String())
				}
			}
		}
	}
}

// displayPrefix is the longest prefix of s that takes at most n cells.
func displayPrefix(s string, n int) string {
	w := 0
	for i, r := range s {
		if w+columns.Width(string(r)) > n {
			return s[:i]
		}
		w += columns.Width(string(r))
	}
	return s
}

// cellAt is what starts at display cell n of s.
func cellAt(s string, n int) string { return s[len(displayPrefix(s, n)):] }
