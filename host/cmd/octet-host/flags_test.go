package main

import (
	"io"
	"reflect"
	"testing"
)

// Flags are read wherever they stand; `--` ends them.
func TestParseFlagsAnywhere(t *testing.T) {
	cases := []struct {
		args  []string
		trace bool
		n     int
		pos   []string
	}{
		{[]string{"DIR", "hello", "{}", "--trace"}, true, 0, []string{"DIR", "hello", "{}"}},
		{[]string{"--trace", "DIR", "hello"}, true, 0, []string{"DIR", "hello"}},
		{[]string{"DIR", "-n", "3", "hello", "-trace"}, true, 3, []string{"DIR", "hello"}},
		{[]string{"DIR", "--", "--trace", "-n"}, false, 0, []string{"DIR", "--trace", "-n"}},
		{[]string{"--", "x"}, false, 0, []string{"x"}},
		{[]string{"DIR", "-", "{}"}, false, 0, []string{"DIR", "-", "{}"}},
		{nil, false, 0, nil},
	}
	for _, c := range cases {
		fs := flagSet("t", "", io.Discard)
		trace := fs.Bool("trace", false, "")
		n := fs.Int("n", 0, "")
		if code := parse(fs, c.args, io.Discard); code != -1 {
			t.Fatalf("%q: parse returned %d", c.args, code)
		}
		got := fs.Args()
		if len(got) == 0 {
			got = nil
		}
		if *trace != c.trace || *n != c.n || !reflect.DeepEqual(got, c.pos) {
			t.Errorf("%q: trace=%v n=%d args=%q, want trace=%v n=%d args=%q", c.args, *trace, *n, got, c.trace, c.n, c.pos)
		}
	}
}

// An unknown flag after a positional argument is still an error, not a positional.
func TestParseUnknownFlagAfterPositional(t *testing.T) {
	fs := flagSet("t", "", io.Discard)
	if code := parse(fs, []string{"DIR", "--nope"}, io.Discard); code != exitStartup {
		t.Fatalf("parse returned %d, want %d", code, exitStartup)
	}
}
