package strictjson

import "testing"

// TestScanEnds: where each value ends, for every kind of value, escapes that end a string
// early for a naive scanner, brackets inside strings, and unterminated input.
func TestScanEnds(t *testing.T) {
	for _, c := range []struct {
		in   string
		end  int // ValueEnd(in, 0)
		tail string
	}{
		{`"abc",1`, 5, `,1`},
		{`"a\"b"}`, 6, `}`},
		{`"a\\"]`, 5, `]`},
		{`"a\\\"b"x`, 8, `x`},
		{`{"k":["]",{"x":"}"}]},2`, 21, `,2`},
		{`[[[]],[]] `, 9, ` `},
		{`-1.5e3,`, 6, `,`},
		{`true}`, 4, `}`},
		{`null`, 4, ``},
		{`"open`, 5, ``},
		{`{"k":[1,2`, 9, ``},
	} {
		end := ValueEnd([]byte(c.in), 0)
		if end != c.end || c.in[end:] != c.tail {
			t.Errorf("ValueEnd(%q) = %d (tail %q), want %d (tail %q)", c.in, end, c.in[end:], c.end, c.tail)
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
	if got := ValueEnd([]byte(`1`), 1); got != 1 {
		t.Errorf("ValueEnd past the end = %d, want 1", got)
	}
}
