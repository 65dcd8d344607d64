package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"", "abc", 3}, {"call", "call", 0},
		{"calll", "call", 1}, {"api_verison", "api_version", 1}, {"ab", "ba", 1},
		{"kitten", "sitting", 3}, {"héllo", "hello", 1}, {"ca", "abc", 3},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	fields := []string{"name", "version", "api_version", "requires_octet", "description", "entrypoint"}
	for _, c := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"api_verison", fields, "api_version"},
		{"verion", fields, "version"},
		{"Name", fields, "name"},
		{"colour", fields, ""},    // nothing near: the caller says "may need a newer octet"
		{"name", fields, ""},      // an exact name is no typo
		{"x", []string{"id"}, ""}, // short names need a near miss
		{"calll", []string{"bundle", "call", "certify"}, "call"},
		{"stat", []string{"script", "state", "safe-mode"}, "state"},
		{"hello_wrld", []string{"hello_world", "goodbye"}, "hello_world"},
		{"", fields, ""},
	} {
		if got := Closest(c.name, c.cands); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if got := Hint("stat", []string{"state"}, func(s string) string { return "--" + s }); got != "; did you mean --state?" {
		t.Errorf("Hint = %q", got)
	}
	if got := Hint("zzz", []string{"state"}, nil); got != "" {
		t.Errorf("Hint with nothing close = %q", got)
	}
}
